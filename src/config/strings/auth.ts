/**
 * Texts of the auth widgets (sign-in page and overlay, route guard). The spec's English texts
 * are the defaults, copied letter for letter (product-rules §5 validation, product-rules §8 "Sign-in page").
 * Texts the spec does not show (titles, labels, prompts) are designed here; they are marked
 * "(designed)".
 */
export const authStrings = {
  /** Accessible name of the dialog / page region (designed). */
  dialogLabel: 'Sign in or sign up',
  /** Headings per screen (designed), keyed by the screen names of `AUTH_SCREENS`. */
  titles: {
    signUp: 'Create your account',
    signIn: 'Sign in',
    accountCreated: 'Account created',
    recover: 'Password recovery',
    recoverySent: 'Recovery email sent',
    setPassword: 'Set new password',
    passwordReset: 'Password reset',
    mfaChallenge: 'Two-factor authentication',
  },
  /** Form labels and buttons (designed). */
  labels: {
    email: 'E-mail',
    password: 'Password',
    newPassword: 'New password',
    signUp: 'Sign up',
    signIn: 'Sign in',
    forgotPassword: 'Forgot password?',
    backToLogin: 'Back to login',
    sendRecoveryEmail: 'Send recovery email',
    setNewPassword: 'Set new password',
    resendVerification: 'Resend verification email',
    haveAccount: 'Already have an account?',
    noAccount: "Don't have an account?",
    orContinueWith: 'or continue with',
    continueWith: 'Continue with {provider}',
    /** (designed) the toggle beside a password field; pressed shows the password. */
    showPassword: 'Show password',
    dismissAlert: 'Dismiss message',
    working: 'Please wait…',
    redirecting: 'Signing you in…',
    /** (designed) page mode signed in on the page its route leads to (a one-route app): it stays. */
    signedIn: 'You are signed in.',
    mfaCode: 'Authentication code',
    verifyCode: 'Verify',
    cancelSignIn: 'Cancel and sign out',
    /** (designed) the account-created screen's code entry. */
    emailCode: 'Confirmation code',
    confirmAccount: 'Confirm account',
  },
  /** product-rules §2: the prompt to check the inbox and spam folder (wording designed). */
  prompts: {
    accountCreated: 'We sent a confirmation link to {email}. Please check your inbox and spam folder.',
    accountCreatedNoEmail: 'We sent you a confirmation link. Please check your inbox and spam folder.',
    recoverySent: 'If an account exists for {email}, we sent it a link to reset your password. Please check your inbox and spam folder.',
    recoverySentNoEmail:
      'If an account exists for this address, we sent it a link to reset your password. Please check your inbox and spam folder.',
    recovery: 'Enter the e-mail address of your account and we will send you a link to set a new password.',
    newPassword: 'Choose a new password for your account.',
    resetSuccess: 'Password reset successfully! You can now sign in with your new password.',
    mfaChallenge: 'Enter the 6-digit code from your authenticator app.',
    /** (designed) under the account-created prompt: the code the same e-mail carries. */
    emailCode: 'Or enter the 6-digit code from that e-mail:',
  },
  /** Social sign-in providers (product-rules §7: a search-engine company, a cloud company, a code host, a social network). */
  providers: {
    google: 'Google',
    azure: 'Microsoft',
    github: 'GitHub',
    facebook: 'Facebook',
  },
  /** product-rules §5 validation messages, letter for letter. */
  validation: {
    emailRequired: 'E-mail is required',
    emailInvalid: 'E-mail must be valid',
    passwordRequired: 'Password is required',
    passwordTooShort: 'Password must be at least 6 characters',
    newPasswordRequired: 'Please enter a new password.',
    newPasswordTooShort: 'Password must be at least 6 characters long.',
    recoveryEmailRequired: 'Please enter your email address.',
    /** (designed) the MFA step's code field. */
    mfaCodeRequired: 'Please enter the code from your authenticator app.',
    mfaCodeInvalid: 'The code has 6 digits.',
    /** (designed) the account-created screen's code field. */
    emailCodeRequired: 'Please enter the code from the e-mail.',
  },
  /** product-rules §8 "Sign-in page" messages, letter for letter, plus four designed ones. */
  messages: {
    invalidCredentials: 'Invalid email or password.',
    userExists:
      "User {email} already exists. Sign in, use another email or reset your password. If you didn't receive the verification e-mail click the following button.",
    createAccountFailed: 'Could not create account: {message}. Please try again later.',
    socialFailed: 'Could not sign in with {provider}. Please try again later or use other login method.',
    resendFailed: 'Could not resend verification email. Please try again later.',
    recoveryFailed: 'Could not send password recovery email: {message}. Please try again later.',
    sessionError: 'Session error during password recovery. Please try again.',
    invalidLink: 'Invalid or expired recovery link. Please request a new password reset.',
    resetFailed: 'Could not reset password: {message}. Please try again later.',
    unexpected: 'An unexpected error occurred. Please try again.',
    resetSuccess: 'Password reset successfully! You can now sign in with your new password.',
    /** (designed) after 'Resend verification email' succeeded. */
    resendSent: 'We sent a new verification e-mail to {email}. Please check your inbox and spam folder.',
    /** (designed) sign-in with the right password before the e-mail was confirmed. */
    emailNotConfirmed:
      "Please confirm your e-mail address {email} first. If you didn't receive the verification e-mail click the following button.",
    /** (designed) landing with emailconfirmed=true but no session from the link. */
    emailConfirmed: 'Your e-mail address is confirmed. You can now sign in.',
    /** (designed) landing with emailconfirmed=true and an error from the link. */
    confirmLinkInvalid: 'Invalid or expired confirmation link. Sign in to continue, or sign up again to receive a new verification e-mail.',
    /** (designed) the MFA step: the code was wrong (or used, or too old). */
    mfaInvalidCode: 'Invalid code. Check your authenticator app and enter the current code.',
    /** (designed) the MFA step: the challenge expired before the code came. */
    mfaChallengeExpired: 'The code request expired. Please enter the current code again.',
    /** (designed) the confirmation code was wrong, used or expired. */
    emailCodeInvalid: 'Invalid or expired code. Check the e-mail, or resend it to receive a new code.',
  },
  /** Route guard while the login status is unknown (designed). */
  guard: {
    checking: 'Checking your session…',
  },
};
