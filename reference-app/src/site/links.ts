// Navigation data of product-rules §2, kept apart from the components that render it.

export interface MenuItem {
  title: string;
  route: string;
  /** Opens outside the site in a new tab. */
  external?: boolean;
  /** A page the server makes (the docs): the link loads it as a document, not through the router. */
  document?: boolean;
}

export const externalLinks = {
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

/**
 * The Docs menu: the docs on the site (issue 50: it named three GitHub repositories that do not
 * exist). The same four links on desktop and in the mobile drawer.
 */
export const docsMenu: MenuItem[] = [
  { title: 'All docs', route: '/docs', document: true },
  { title: 'Quick start', route: '/docs/quickstart', document: true },
  { title: 'API reference', route: '/docs/api', document: true },
  { title: 'SDKs: Python and JavaScript', route: '/docs/sdk', document: true },
];

export const mobileDocsMenu: MenuItem[] = docsMenu;

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
