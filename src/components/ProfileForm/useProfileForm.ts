import { useCallback, useState, type FormEvent } from 'react';
import type { ProfileResult, ProfileUpdate } from '../../api/types';
import { useStrings } from '../../config/PlatformProvider';
import type { Strings } from '../../config/strings';
import { useAccountClients, useApiResource, useFeedback, useSignInState } from '../AccountPanel';

type AccountStrings = Strings['account'];

/** The editable profile fields (product-rules §3), their label key and autocomplete token. */
export const PROFILE_FIELDS: ReadonlyArray<{
  key: keyof ProfileUpdate & string;
  label: keyof AccountStrings;
  autoComplete?: string;
  type?: string;
}> = [
  { key: 'full_name', label: 'fullName', autoComplete: 'name' },
  { key: 'street', label: 'street', autoComplete: 'address-line1' },
  { key: 'number', label: 'houseNumber' },
  { key: 'address_extra', label: 'addressExtra', autoComplete: 'address-line2' },
  { key: 'zip_code', label: 'zipCode', autoComplete: 'postal-code' },
  { key: 'city', label: 'city', autoComplete: 'address-level2' },
  { key: 'country_code', label: 'countryCode', autoComplete: 'country' },
  { key: 'mobile', label: 'mobile', autoComplete: 'tel', type: 'tel' },
  { key: 'date_of_birth', label: 'dateOfBirth', autoComplete: 'bday', type: 'date' },
];

export type ProfileDraft = Record<(typeof PROFILE_FIELDS)[number]['key'], string>;

/** The form's text values for a loaded profile (missing values as ''). */
export function draftOf(profile: Partial<ProfileResult>): ProfileDraft {
  return Object.fromEntries(PROFILE_FIELDS.map(({ key }) => [key, (profile[key] as string | null | undefined) ?? ''])) as ProfileDraft;
}

/** The update_profile payload: every field, trimmed, blank ones as null (cleared). */
export function updateOf(draft: ProfileDraft): ProfileUpdate {
  return Object.fromEntries(PROFILE_FIELDS.map(({ key }) => [key, draft[key].trim() === '' ? null : draft[key].trim()])) as ProfileUpdate;
}

export interface UseProfileFormOptions {
  /** Called with the saved profile after an update or the terms agreement. */
  onSave?: (profile: ProfileResult) => void;
}

/** Headless profile form (product-rules §3 fields, §8 messages) with the new user's terms agreement. */
export function useProfileForm({ onSave }: UseProfileFormOptions = {}) {
  const { profile } = useAccountClients();
  const strings = useStrings().account;
  const feedback = useFeedback();
  const signIn = useSignInState();
  const load = useCallback(() => profile.profile(), [profile]);
  const warnLoad = useCallback(() => feedback.show('warning', strings.loadProblem), [feedback, strings.loadProblem]);
  const current = useApiResource(load, { enabled: signIn === 'signed-in', onError: warnLoad });
  // What the user typed, over the loaded profile. The draft is derived, never copied from the
  // data by an effect: a copy made when the data arrived landed after the fields were enabled, so
  // text typed in between was replaced by the loaded value (the e2e "a 422 shows on its field"
  // flake: the typed mobile was lost and the save sent none). The edits belong to one user: a
  // sign-out and another sign-in never show the previous user's typing.
  const [edits, setEdits] = useState<{ owner: string; values: Partial<ProfileDraft> } | null>(null);
  const owner = current.data?.email ?? null;
  const ownEdits = edits && edits.owner === owner ? edits.values : {};
  const draft: ProfileDraft = { ...draftOf(current.data ?? {}), ...ownEdits };
  const [saving, setSaving] = useState(false);
  // The server's message per field of a refused update (422 `errors`), shown on the field.
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<keyof ProfileDraft, string>>>({});

  const save = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!current.data || saving) return;
    setSaving(true);
    try {
      const result = await profile.updateProfile(updateOf(draft));
      if (result.ok) {
        setFieldErrors({});
        // Saved: the form shows the profile as the server stored it.
        setEdits(null);
        current.setData(result.data);
        feedback.show('success', strings.profileUpdated, 3000);
        onSave?.(result.data);
      } else {
        // product-rules §8: a server error and a refused update have different texts.
        feedback.show('warning', result.status >= 500 ? strings.updateProfileError : strings.updateProfileFailed);
        setFieldErrors(
          Object.fromEntries(
            (result.fieldErrors ?? []).filter((e) => PROFILE_FIELDS.some((f) => f.key === e.name)).map((e) => [e.name, e.message]),
          ),
        );
      }
    } catch {
      feedback.show('warning', strings.unexpected);
    } finally {
      setSaving(false);
    }
  };

  const agree = async () => {
    const result = await profile.agreeToTerms();
    if (!result.ok) return feedback.show('warning', strings.termsProblem);
    current.setData(result.data);
    onSave?.(result.data);
  };

  return {
    profile: current,
    draft,
    setField: (key: keyof ProfileDraft, value: string) => {
      if (owner === null) return;
      setEdits((e) => ({ owner, values: { ...(e?.owner === owner ? e.values : {}), [key]: value } }));
      // A changed field no longer carries the message about its old value.
      setFieldErrors((errors) => (errors[key] ? { ...errors, [key]: undefined } : errors));
    },
    fieldErrors,
    save,
    saving,
    agree,
    feedback,
  };
}
