export { ProfileForm } from './ProfileForm';
export type { ProfileFormProps } from './ProfileForm';
export { useProfileForm, PROFILE_FIELDS, draftOf, updateOf } from './useProfileForm';
export type { UseProfileFormOptions, ProfileDraft } from './useProfileForm';
