// Copy of the pricing page (product-rules §1, §2, §9), as data so the page stays about layout.

export const pricingHero = {
  title: 'Simple pricing,',
  accent: 'per-second GPUs',
  lead: 'Public hosting on the marketplace is free. Pay for private hosting and for the GPU or CPU seconds your runs use, nothing more; demo services run free.',
};

export const plansSection = {
  title: 'Plans',
  lead: 'Start free, upgrade when you need private services. Cancel any time.',
};

export const earnBlock = {
  title: 'Earn with public hosting',
  text: 'Publish your model on the marketplace at no cost. Every request others make to it earns you credits, which extend your daily usage limits or can be paid out.',
  points: [
    'Free public hosting, no GPU bill',
    'Credits on every request to your services',
    'Generated docs, web UI and SDKs for your users',
  ],
  cta: 'Start publishing',
  ctaRoute: '/signinup?page_state=0',
};

export const customBlock = {
  title: 'Customised solutions',
  text: 'Private, hybrid or on-premise deployment, your own containers, a shared organisation balance, SSO, SLA and audit logs. Tell us what you need and we tailor it.',
  cta: 'Contact us',
};

export const gpuCloudSection = {
  title: 'Private GPU cloud',
  text: 'Serverless GPUs billed by the second: cold starts under 250 ms, scaling from zero to thousands of instances, built-in task queueing. Pick the GPU memory your model needs and estimate what it costs.',
};
