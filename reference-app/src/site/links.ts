// Navigation data of product-rules §2, kept apart from the components that render it.

export interface MenuItem {
  title: string;
  route: string;
  /** Opens outside the site in a new tab. */
  external?: boolean;
}

export const externalLinks = {
  pythonSdk: 'https://github.com/limelight-ai/limelight-python',
  javascriptSdk: 'https://github.com/limelight-ai/limelight-js',
  taskApiFramework: 'https://github.com/limelight-ai/fast-task-api',
  openSourceRepo: 'https://github.com/limelight-ai/limelight',
  codeHost: 'https://github.com/limelight-ai',
  professionalNetwork: 'https://www.linkedin.com/company/limelight-ai',
  videoSite: 'https://www.youtube.com/@limelight-ai',
  contactEmail: 'hello@limelight.dev',
} as const;

export const mainMenu: MenuItem[] = [
  { title: 'APIs', route: '/APIs/Overview' },
  { title: 'Hosting', route: '/Hosting' },
  { title: 'Pricing', route: '/Pricing' },
];

/** product-rules §2: the menu labels /careers as 'Carreers' (sic). */
export const companyMenu: MenuItem[] = [
  { title: 'About us', route: '/Company' },
  { title: 'Carreers', route: '/careers' },
];

export const docsMenu: MenuItem[] = [
  { title: 'Python SDK', route: externalLinks.pythonSdk, external: true },
  { title: 'JavaScript SDK', route: externalLinks.javascriptSdk, external: true },
  { title: 'Task-API framework', route: externalLinks.taskApiFramework, external: true },
];

/** product-rules §2: on mobile the Docs submenu lists only the Python SDK and the task-API framework. */
export const mobileDocsMenu: MenuItem[] = docsMenu.filter((item) => item.route !== externalLinks.javascriptSdk);

/** product-rules §1: three equal footer columns. APIs, About Us, Career, Roadmap, Invest, Earn go home (product-rules §2). */
export const footerColumns: Array<{ title: string; items: MenuItem[] }> = [
  {
    title: 'Products',
    items: [
      { title: 'APIs', route: '/' },
      { title: 'Hosting', route: '/Hosting' },
      { title: 'Pricing', route: '/pricing' },
    ],
  },
  {
    title: 'Company',
    items: ['About Us', 'Career', 'Roadmap', 'Invest', 'Earn'].map((title) => ({ title, route: '/' })),
  },
  {
    title: 'Terms & Policies',
    items: [
      { title: 'Terms of Service', route: '/terms_of_service' },
      { title: 'Privacy Policy', route: '/privacy_policy' },
    ],
  },
];

export const socialLinks: MenuItem[] = [
  { title: 'GitHub', route: externalLinks.codeHost, external: true },
  { title: 'LinkedIn', route: externalLinks.professionalNetwork, external: true },
  { title: 'YouTube', route: externalLinks.videoSite, external: true },
];
