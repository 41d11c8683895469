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
  /** Above a form that holds the endpoint's example input. */
  exampleInput: 'Filled in with the example input: change anything and run it to see your own output.',
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
    fromRecent: 'median of the last {count} runs',
    /** fromRecent for a single run (the strings' way of plurals: a second string, as search.resultsOne). */
    fromRecentOne: 'the last run',
    /** Beside the GPU's price per second while the endpoint has no measured run. */
    fromPricing: 'no runs yet',
    perSecond: '{credits} credits/s on {gpu}',
    /** Beside Run for a service on the demo runtime: its runs cost nothing (docs/jobs.md: metering). */
    demoFree: 'Demo run: free',
    /** No run yet: the price of a run as long as the endpoint's example run. */
    perRun: '≈ {credits} credits a run',
    fromExample: 'the example took {seconds} s',
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
    video: 'Generated video',
    /** Under a clip delivered as an animated GIF (it plays by itself, without controls). */
    animation: 'Video clip (animated GIF), playing in a loop.',
    audio: 'Generated audio',
    model: '3D model',
    modelLoading: 'Loading the 3D viewer…',
    modelHint: 'Drag to turn the model, scroll or pinch to zoom; arrow keys turn it when focused.',
    modelFailed: 'This browser cannot show the 3D model here; download it instead.',
    copyJson: 'Copy JSON',
    copied: 'Copied!',
    /** Before the first run: the endpoint's example output. */
    example: 'Example output',
    exampleNote: 'What this endpoint returns for the example input. Run it to see your own.',
    /** Before the first run: the caller's latest run of the service. */
    lastRun: 'Your last run',
    lastRunNote: '{summary} · {time}',
    placeholder: 'The output appears here when you run the service.',
    /** A job produced by a demo runtime, not by the real model. */
    demo: 'Demo output from the {runtime} runtime: computed on this server to show the flow, not produced by the real model.',
    runtime: 'Runtime: {runtime}',
    empty: 'The run finished without output.',
    cost: 'Cost: {credits} credits, {seconds} s',
    /** Not in the spec: a finished run's timings from the job's metrics (docs/jobs.md). */
    queueTime: 'Queue {time}',
    coldStart: 'cold start {time}',
    warmStart: 'warm start (no cold start)',
    runTime: 'run {time}',
    /** Not in the spec: the lines a container wrote while the job ran. */
    logs: 'Container log of this run',
  },
  errors: {
    /** 401: the auth dialog opens; after sign-in the run resumes. */
    signIn: 'Please sign in to run this service. Your run starts after you sign in.',
    /** 402: the balance is too low. */
    credits: 'Not enough credits for this run.',
    buyCredits: 'Buy credits',
    failed: 'The run failed: {message}',
    noEndpoints: 'This service cannot be run yet: its publisher has not added an endpoint to call.',
    /** Not in the spec: a container service whose deployment is still deploying. */
    deploymentStarting: 'This service is starting: its container is being deployed. Try again in a minute.',
    /** Not in the spec: a container service whose deployment failed or stopped, or has no runner. */
    deploymentUnavailable: 'This service is not running right now: its container deployment has stopped or failed. Try again later.',
    unknownService: 'Service not found.',
    loadFailed: 'Could not load this service. Check your connection and try again.',
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
  /** The service page's tabs and its API tab (reference app). */
  page: {
    tabsLabel: 'Service',
    playground: 'Playground',
    api: 'API',
    docs: 'Docs',
    apiIntro:
      'Run this endpoint from your own code: with cURL through the job API, or with the Python (limelight) and JavaScript (@limelight/client) SDKs, which wait for the result however long the job runs.',
    openApi: 'OpenAPI document of this service',
    openApiHint: 'Its input and output schemas generate typed clients in any language (openapi-generator, openapi-typescript).',
    apiKeyTitle: 'API key',
    apiKeyPlaceholder: 'The samples read your key from the LIMELIGHT_API_KEY environment variable.',
    apiKeyExisting: 'Your keys: {keys}. Only the masked part is stored here; paste the full key you saved when you created it.',
    apiKeyCreate: 'Create an API key for these samples',
    apiKeyCreating: 'Creating…',
    apiKeyCreated: 'New key created and written into the samples. It is shown only now: store it somewhere safe.',
    apiKeyFailed: 'Could not create a key: {message}',
    apiKeySignIn: 'Sign in to create an API key.',
    usesPlaygroundInput: 'The samples use the input of your last playground run.',
    curl: 'cURL',
    python: 'Python',
    javascript: 'JavaScript',
  },
};
