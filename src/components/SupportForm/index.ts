export { SupportForm } from './SupportForm';
export type { SupportFormProps } from './SupportForm';
