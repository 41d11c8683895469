import { StrictMode } from 'react';
import { renderToReadableStream } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, matchRoutes, StaticRouterProvider, type RouteMatch } from 'react-router';
import type { DOMPurify } from 'dompurify';
import { setServerPurifier } from '@limelight/widgets/catalogue';
import { darkTheme } from '@limelight/widgets/theme/dark';
import { App } from './App';
import type { RouteHandle } from './layout/useRouteTitle';
import { routes } from './routes';
import { HYDRATION_ELEMENT_ID, serializeHydration } from './ssr/hydration';
import { headTags, pageMeta } from './ssr/pageMeta';
import { serverContext } from './ssr/pageData';
import { servedPublicData, type ServerContext } from './ssr/publicData';
import { docsPageData } from './docs/source';
import type { DocsRenderContext } from './docs/loader';
import type { SiteConfig } from './siteConfig';

// The server side of the app (server/http/siteRenderer.ts loads the build of this module): the
// router's own data loading (createStaticHandler runs the loaders, as the browser router does),
// then React's streaming render of the same route table. Built by vite.config.ts's ssr
// environment into dist/server/ssr.

/** The class the page's <html> wears (the dark theme, product-rules §1). */
export const htmlClass = darkTheme;

export interface RenderRequest {
  request: Request;
  config: SiteConfig;
  context: ServerContext;
  /** The site's public origin, for canonical URLs. */
  origin: string;
  /**
   * DOMPurify over a server DOM (server/http/descriptionPurifier.ts), so descriptions render as
   * the same sanitised markup the browser renders; without it they render as plain text.
   */
  purifier?: DOMPurify;
}

export type RenderResult =
  /** A redirect (or another answer a loader made), sent as it is. */
  | { kind: 'response'; response: Response }
  /**
   * Not a server-rendered page: the browser renders it from the plain shell, with the page's own
   * title and description in its head when its route names one (issue 50, item 7: /signinup's
   * server HTML kept the home page's title).
   */
  | { kind: 'client'; head?: string }
  | {
      kind: 'page';
      status: number;
      /** Title, description, canonical URL, Open Graph and Twitter tags. */
      head: string;
      /** The page modules rendered (routes.tsx handle.module), for their CSS and scripts. */
      modules: string[];
      /** The rendered app, streamed; complete (every Suspense boundary resolved) when read. */
      body: ReadableStream<Uint8Array>;
      /** The hydration data block, to follow the root element. */
      data: string;
    };

const handler = createStaticHandler(routes);

/** A browser-rendered page's shell: its head from its route's title, when it has one. */
function clientShell(matched: RouteMatch[], request: Request, origin: string): RenderResult {
  if (!matched.some((m) => (m.route.handle as RouteHandle | undefined)?.title)) return { kind: 'client' };
  const matches = matched.map((m) => ({
    id: m.route.id ?? '',
    pathname: m.pathname,
    params: m.params,
    data: undefined,
    loaderData: undefined,
    handle: m.route.handle,
  }));
  return { kind: 'client', head: headTags(pageMeta(matches, { catalogue: null, repo: null }, new URL(request.url), origin)) };
}

export async function render({ request, config, context, origin, purifier }: RenderRequest): Promise<RenderResult> {
  setServerPurifier(purifier ?? null);
  // A page the browser renders (the account area, sign-in) is not even loaded here; redirects
  // (routes with a loader and no page) still run, so the server answers them with a 302.
  const matched = matchRoutes(routes, new URL(request.url).pathname) ?? [];
  const leaf = matched.at(-1)?.route;
  if (leaf?.lazy && !matched.some((m) => (m.route.handle as RouteHandle | undefined)?.ssr)) return clientShell(matched, request, origin);
  // The docs pages' loaders read the docs here, sanitised with the same purifier (docs/source.ts).
  const docs: DocsRenderContext = { docs: (slug) => docsPageData(slug, { purifier: purifier ?? null, openapi: context.openapi }) };
  const result = await handler.query(request, { requestContext: { ...serverContext(context), ...docs } as never });
  if (result instanceof Response) return { kind: 'response', response: result };
  const handles = result.matches.map((m) => (m.route.handle ?? {}) as RouteHandle);
  if (!handles.some((h) => h.ssr) || result.errors) return { kind: 'client' };

  const router = createStaticRouter(handler.dataRoutes, result);
  const data = servedPublicData(result.loaderData);
  const url = new URL(request.url);
  const matches = result.matches.map((m) => ({
    id: m.route.id,
    pathname: m.pathname,
    params: m.params,
    data: result.loaderData[m.route.id],
    loaderData: result.loaderData[m.route.id],
    handle: m.route.handle,
  }));
  const meta = pageMeta(matches, data, url, origin);
  let failed: unknown;
  const body = await renderToReadableStream(
    <StrictMode>
      <App config={config} navigate={() => {}} catalogue={data.catalogue}>
        {/* The hydration data goes in a JSON block of our own: the router's is an inline script. */}
        <StaticRouterProvider router={router} context={result} hydrate={false} />
      </App>
    </StrictMode>,
    {
      onError(error) {
        failed = error;
      },
    },
  );
  // Every boundary complete before the first byte: crawlers and visitors without JavaScript get
  // the whole page, and React needs no inline script (CSP) to fill boundaries in later.
  await body.allReady;
  if (failed) throw failed;
  return {
    kind: 'page',
    status: meta.status,
    head: headTags(meta),
    modules: handles.map((h) => h.module).filter((m): m is string => Boolean(m)),
    body,
    data: `<script type="application/json" id="${HYDRATION_ELEMENT_ID}">${serializeHydration({
      config,
      router: { loaderData: result.loaderData, actionData: result.actionData, errors: result.errors },
    })}</script>`,
  };
}
