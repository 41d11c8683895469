// Marketing copy of product-rules §1, as data so pages stay about layout.

export const howItWorksSteps = [
  {
    title: 'Write your API',
    text: 'Wrap your model in a few lines of Python with our task-API framework, compatible with the web API framework you already know.',
  },
  { title: 'Dockerize', text: 'Package it as a container. Bring your own image or use our templates; no lock-in.' },
  { title: 'Deploy', text: 'Push to your container registry and deploy. We scale from zero to thousands of instances.' },
  { title: 'Use it anywhere', text: 'Call it from the generated web UI, or generate typed Python and JavaScript SDKs.' },
];

export const howItWorksBlurbs = [
  { title: 'Lightning fast', text: 'Cold starts under 250 ms and per-second billing, so idle costs nothing.' },
  { title: 'Auto-scale', text: 'Built-in task queueing and orchestration scale every service with its traffic.' },
  { title: 'Type-safe SDKs', text: 'Generated documentation and typed clients for every endpoint you publish.' },
];

export const audiences = [
  {
    title: 'For publishers',
    text: 'Publish on the marketplace for free and earn credits on every request. Credits extend your daily limits or are paid out.',
  },
  { title: 'For teams', text: 'Private, hybrid or on-premise deployment with your own containers and a shared organisation balance.' },
];

export const testimonials = [
  {
    author: 'Pixelwerk Studio',
    text: 'We moved our image pipeline in an afternoon. Cold starts are a non-issue and the bill dropped by half.',
  },
  {
    author: 'Dr. Amara Osei, research lead',
    text: 'Publishing our speech model on the marketplace brought users we would never have reached, and the credits pay for our GPUs.',
  },
  { author: 'Northwind Labs', text: 'Typed SDKs for every model we host: our front-end team stopped writing API glue code.' },
];

export const faq = [
  {
    question: 'Can I host my own models?',
    answer:
      'Yes. Write an API with our Python library, package it in a container, push it to a registry and deploy. Public hosting on the marketplace is free; private hosting comes with the paid plans.',
  },
  {
    question: 'What happens to my data?',
    answer:
      'Data sent to our own APIs is not collected, analysed or shared unless you opt in to public usage. We keep usage statistics for billing. Models hosted by third parties process data at those providers.',
  },
  {
    question: 'Why choose Limelight over other API providers?',
    answer:
      'Per-second serverless pricing below the big clouds, cold starts under 250 ms, no lock-in, and revenue sharing when others use the models you publish.',
  },
];

/**
 * The home page's Python sample: the SDK of this repository (docs/sdk.md) against a seeded
 * service; test/integration/client/samples.test.ts runs it as pasted against a real server.
 */
export const sampleCode = `# pip install ./sdk/python   (or PYTHONPATH=sdk/python; docs/sdk.md)
import limelight

client = limelight.Client(base_url="http://localhost:3000", api_key="lime_...")
output = client.run("lime-diffusion-xl", input={"prompt": "a lime-green aurora over a purple sky"})
print(output["image"]["url"])
`;
