import type { UIMatch } from 'react-router';
import type { ModelDescriptor } from '@limelight/widgets/api';
import { descriptionPreview, displayName, findServiceByPath, isPlaceholderImage } from '@limelight/widgets/catalogue';
import { defaultStrings } from '@limelight/widgets/platform';
import type { RouteHandle } from '../layout/useRouteTitle';
import type { PublicData } from './publicData';

// The <head> of a server-rendered page (server/http/siteRenderer.ts): its own title, description,
// canonical URL and the Open Graph and Twitter tags link previews read. Pure: matches and data
// in, tags out (unit-tested in test/unit/reference-app/pageMeta.test.ts).

/** The PlatformProvider's default brand, which the app keeps (App.tsx passes none). */
const BRAND = 'Limelight';
const DESCRIPTION_MAX = 200;

const SITE_DESCRIPTION = 'Limelight: a serverless GPU cloud and marketplace for AI model APIs.';

/** What each page is about, by its source file (routes.tsx); a service says it itself. */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  './pages/home/HomePage.tsx':
    'Discover and run hundreds of AI model APIs, or deploy your own container on serverless GPUs and scale from zero with per-second pricing.',
  './pages/catalogue/OverviewPage.tsx':
    'Browse every AI model API on Limelight: search by name, filter by input and output type and provider, sort by runs or date.',
  './pages/pricing/PricingPage.tsx':
    'Limelight pricing: credit plans for running AI model APIs and per-second GPU prices for hosted services.',
  './pages/hosting/HostingPage.tsx':
    'Host your AI model on Limelight: bring a container or an HTTP service, scale from zero on serverless GPUs and earn from every run.',
  './pages/company/CompanyPage.tsx': 'About Limelight, the company behind the serverless GPU cloud and AI model API marketplace.',
  './pages/policies/TermsPage.tsx': 'The terms of service for using Limelight and its AI model APIs.',
  './pages/policies/PrivacyPage.tsx': 'How Limelight collects, uses and protects personal data.',
  './pages/system/NotFoundPage.tsx': 'This page does not exist on Limelight.',
};

/** Lower-case aliases of a page (product-rules §2) name the page's main address as canonical. */
const CANONICAL_PATHS: Readonly<Record<string, string>> = {
  '/pricing': '/Pricing',
  '/hosting': '/Hosting',
  '/Company': '/company',
  '/APIs/overview': '/APIs/Overview',
};

export interface PageMeta {
  title: string;
  description: string;
  canonical: string;
  /** og:type: a service is a product page, the rest the website. */
  type: 'website' | 'product';
  /** An absolute image URL for link previews, when the page has its own. */
  image?: string;
  /** 404 for a service that does not exist (the page says so), else 200. */
  status: 200 | 404;
}

function handleOf(matches: readonly UIMatch[]): RouteHandle {
  const handles = matches.map((m) => (m.handle ?? {}) as RouteHandle);
  return {
    module: handles.findLast((h) => h.module)?.module,
    ...handles.findLast((h) => h.title),
  };
}

function serviceOf(matches: readonly UIMatch[], data: PublicData): ModelDescriptor | undefined {
  const params = matches.at(-1)?.params ?? {};
  const segments = params.serviceId !== undefined ? [params.serviceId] : [params.owner ?? '', params.name ?? ''];
  return findServiceByPath(data.catalogue?.models ?? [], segments);
}

/** The page's address as search engines should file it; the catalogue's view lives in its query. */
function canonicalOf(origin: string, url: URL, module: string | undefined): string {
  const path = CANONICAL_PATHS[url.pathname] ?? url.pathname;
  const query = module === './pages/catalogue/OverviewPage.tsx' ? url.search : '';
  return `${origin}${path}${query}`;
}

export function pageMeta(matches: readonly UIMatch[], data: PublicData, url: URL, origin: string): PageMeta {
  const handle = handleOf(matches);
  const base = { canonical: canonicalOf(origin, url, handle.module), type: 'website' as const, status: 200 as const };
  const strings = defaultStrings.search;
  if (handle.module === './pages/catalogue/ServicePage.tsx') {
    const model = serviceOf(matches, data);
    if (!model) {
      return { ...base, title: `${strings.service.notFoundTitle} · ${BRAND}`, description: strings.service.notFoundText, status: 404 };
    }
    const image = model.display_img_url?.trim();
    return {
      ...base,
      type: 'product',
      title: `${displayName(model, strings.unknownModel)} · ${BRAND}`,
      description: descriptionPreview(model, DESCRIPTION_MAX) || SITE_DESCRIPTION,
      ...(image && !isPlaceholderImage(image) ? { image: new URL(image, origin).href } : {}),
    };
  }
  // A page whose data names it (the docs pages: docs/source.ts) has its own title and description.
  const own = (matches.at(-1)?.data as { meta?: { title?: unknown; description?: unknown } } | null | undefined)?.meta;
  if (typeof own?.title === 'string' && typeof own.description === 'string')
    return { ...base, title: `${own.title} · ${BRAND}`, description: own.description };
  const description = (handle.module && DESCRIPTIONS[handle.module]) || SITE_DESCRIPTION;
  if (handle.module === './pages/catalogue/OverviewPage.tsx')
    return { ...base, title: `${strings.overview.title} · ${BRAND}`, description };
  const title = handle.title ? (handle.brandFirst ? `${BRAND} · ${handle.title}` : `${handle.title} · ${BRAND}`) : BRAND;
  return { ...base, title, description };
}

const escapeAttribute = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The tags, escaped, for the page's <head>. */
export function headTags(meta: PageMeta): string {
  const tag = (attribute: 'name' | 'property', key: string, content: string) =>
    `<meta ${attribute}="${key}" content="${escapeAttribute(content)}" />`;
  return [
    `<title>${escapeAttribute(meta.title)}</title>`,
    tag('name', 'description', meta.description),
    `<link rel="canonical" href="${escapeAttribute(meta.canonical)}" />`,
    tag('property', 'og:type', meta.type),
    tag('property', 'og:site_name', BRAND),
    tag('property', 'og:title', meta.title),
    tag('property', 'og:description', meta.description),
    tag('property', 'og:url', meta.canonical),
    ...(meta.image ? [tag('property', 'og:image', meta.image)] : []),
    tag('name', 'twitter:card', meta.image ? 'summary_large_image' : 'summary'),
    tag('name', 'twitter:title', meta.title),
    tag('name', 'twitter:description', meta.description),
    ...(meta.image ? [tag('name', 'twitter:image', meta.image)] : []),
  ].join('\n    ');
}
