/**
 * Texts of the service runner (the playground that runs a service's endpoint through the job
 * API, see docs/jobs.md). Placeholders: `{name}`, `{credits}`, `{seconds}`, `{count}`,
 * `{position}`, `{runtime}`, `{min}`, `{max}`, `{size}`, `{status}`, `{time}`.
 */
export const runnerStrings = {
  /** Accessible name of the whole widget. */
  label: 'Run {name}',
  title: 'Playground',
  endpoint: 'Endpoint',
  required: 'required',
  /** Read after a required field's label. */
  requiredMark: '*',
  run: 'Run',
  runShortcut: 'Ctrl+Enter or ⌘+Enter runs',
  runAgain: 'Run again',
  cancel: 'Cancel',
  cancelling: 'Cancelling…',
  reset: 'Reset to defaults',
  /** Boolean switch states. */
  on: 'On',
  off: 'Off',
  /** Optional number left empty. */
  notSet: 'Not set',
  chooseOption: 'Choose…',
  array: {
    add: 'Add item',
    remove: 'Remove item {count}',
    item: 'Item {count}',
    addMessage: 'Add message',
    removeMessage: 'Remove message {count}',
    role: 'Role',
    content: 'Message {count}',
    empty: 'No items yet.',
  },
  file: {
    drop: 'Drop a file here or choose one',
    choose: 'Choose file',
    remove: 'Remove file',
    uploading: 'Uploading {name}…',
    uploaded: '{name} ({size})',
    uploadFailed: 'Could not upload {name}: {message}',
    preview: 'Preview of {name}',
  },
  estimate: {
    label: 'Estimated cost',
    credits: '≈ {credits} credits',
    time: '≈ {seconds} s',
    fromRecent: 'based on your last {count} runs',
    fromPricing: 'based on the GPU price',
    unknown: 'No estimate yet',
  },
  status: {
    idle: 'Ready',
    validating: 'Checking the input…',
    submitting: 'Starting the run…',
    QUEUED: 'Queued',
    queuedAt: 'Queued, position {position}',
    PROCESSING: 'Running',
    FINISHED: 'Finished',
    FAILED: 'Failed',
    TIMEOUT: 'Timed out',
    CANCELLED: 'Cancelled',
    elapsed: 'Elapsed: {seconds} s',
    progress: 'Progress',
    invalid: 'Please correct the marked fields.',
  },
  output: {
    title: 'Output',
    streaming: 'Streaming…',
    download: 'Download ({size})',
    json: 'JSON output',
    image: 'Generated image',
    /** A job produced by a demo runtime, not by the real model. */
    demo: 'Demo output from the {runtime} runtime: computed on this server to show the flow, not produced by the real model.',
    runtime: 'Runtime: {runtime}',
    empty: 'The run finished without output.',
    cost: 'Cost: {credits} credits, {seconds} s',
  },
  errors: {
    /** 401: the auth dialog opens; after sign-in the run resumes. */
    signIn: 'Please sign in to run this service. Your run starts after you sign in.',
    /** 402: the balance is too low. */
    credits: 'Not enough credits for this run.',
    buyCredits: 'Buy credits',
    failed: 'The run failed: {message}',
    noEndpoints: 'This service has no endpoint that can be run.',
    unknownService: 'Service not found.',
    notANumber: 'Enter a number.',
    notJson: 'Enter valid JSON.',
  },
  recent: {
    title: 'Your recent runs',
    empty: 'No runs of this service yet.',
    open: 'Open',
    again: 'Run again',
    when: '{status}, {time}',
    loading: 'Loading your runs…',
    loadFailed: 'Could not load your recent runs.',
  },
};
