/** Global notifications and the API status catalogue (product-rules §4 "Global notifications", §8). */
export const notificationStrings = {
  warningTitle: 'Warning',
  successTitle: 'Success',
  criticalTitle: 'Something went wrong',
  defaultError: 'An error has occurred. Please try again later.',
  defaultSuccess: 'Success!',
  loadingLabel: 'Loading',
  dismiss: 'Dismiss',
  reload: 'Reload page',
  status: {
    offline: "Couldn't reach server. Are you online?",
    signUpProblem: 'We had problems to sign you up. Please try again in a few minutes. If the problem persists, please contact us.',
    unauthorized: 'You are not authorized to see this data. Maybe your session has ended. Please sign in or sign up.',
    notFound: "Couldn't reach server. Are you online? Please try again.",
    unknown: 'An uknown error occured. Please try again.',
  },
};
