export { SupportForm } from './SupportForm';
export type { SupportFormProps } from './SupportForm';
export { useSupportForm, toAttachment, MAX_ATTACHMENT_BYTES } from './useSupportForm';
export type { UseSupportFormOptions } from './useSupportForm';
