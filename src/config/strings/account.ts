/**
 * Texts of the account area. Spec §8 "Profile and account" and §5 (password change) texts are
 * copied letter for letter, typos included; labels and titles are designed here.
 */
export const accountStrings = {
  loadProblem:
    'We had problems to get your usage statistics. Please try again in a few minutes. If the problem persists, please contact us.',
  termsProblem: 'We had problems to agree to the terms of service. Please try again.',
  createKeyProblem: 'We had problems creating a new api key. Please try again.',
  deleteKeyProblem: 'We had problems deleteting your api key. Please try again.',
  updateProfileFailed: 'Failed to update your profile. Please try again.',
  updateProfileError: 'An error occurred while updating your profile',
  unexpected: 'An unexpected error occurred',
  createPatProblem: 'We had problems creating your Docker Hub credentials. Please try again.',
  deletePatProblem: 'We had problems deleting your Docker Hub credentials. Please try again.',
  profileUpdated: 'Profile updated successfully',
  patAdded: 'Docker Hub access token added successfully',
  userExists: 'User already exists.',
  passwordIncorrect: 'Current password is incorrect',
  passwordChangeFailed: 'Failed to change password',
  passwordChanged: 'Password changed successfully',
};

/** Spec §9: the credential success toast shows for 3000 ms. */
export const CREDENTIAL_TOAST_MS = 3000;
