import {
  createRequestHandler,
  type ServerBuild,
  UNSAFE_withComponentProps,
  UNSAFE_withErrorBoundaryProps,
  UNSAFE_withHydrateFallbackProps,
} from "react-router";
import reactRouterConfig from "../../react-router.config";
import * as entry from "../entry.server";
import * as root from "../root";
import routeConfig from "../routes";
import { createHttpApp } from "../server/http/app.server";
import { origin } from "./helpers";

type RouteModule = NonNullable<ServerBuild["routes"][string]>["module"];

/** React Router's defaults for what react-router.config.ts does not set. */
const defaultFuture: ServerBuild["future"] = {
  v8_middleware: false,
  v8_passThroughRequests: false,
  v8_trailingSlashAwareDataRequests: false,
};

/** A route of app/routes.ts with its module loaded. */
export type AppRoute = {
  /** React Router's id for it: the file without its extension ("routes/auth/login"). */
  id: string;
  /** As in app/routes.ts ("routes/auth/login.tsx"). */
  file: string;
  /** Its URL pattern ("/course/:courseId"). */
  pattern: string;
  /** The layout route it renders in ("routes/admin/layout"), or "root". */
  parentId: string;
  module: RouteModule;
};

/** A pathless layout route of app/routes.ts (its children are AppRoutes). */
type LayoutRoute = { id: string; parentId: string; module: RouteModule };

type ConfigEntry = {
  id?: string;
  file: string;
  path?: string;
  index?: boolean;
  children?: unknown;
};

/**
 * A route module as React Router's Vite plugin compiles it: the page, error
 * boundary and fallback get their props (loaderData, actionData, ...) from wrappers.
 */
function asBuilt(module: RouteModule): RouteModule {
  const {
    default: page,
    ErrorBoundary,
    HydrateFallback,
  } = module as {
    default?: Parameters<typeof UNSAFE_withComponentProps>[0];
    ErrorBoundary?: Parameters<typeof UNSAFE_withErrorBoundaryProps>[0];
    HydrateFallback?: Parameters<typeof UNSAFE_withHydrateFallbackProps>[0];
  };
  return {
    ...module,
    ...(page ? { default: UNSAFE_withComponentProps(page) } : {}),
    ...(ErrorBoundary ? { ErrorBoundary: UNSAFE_withErrorBoundaryProps(ErrorBoundary) } : {}),
    ...(HydrateFallback
      ? { HydrateFallback: UNSAFE_withHydrateFallbackProps(HydrateFallback) }
      : {}),
  } as RouteModule;
}

/** Every route of app/routes.ts, its module imported as the build imports it. */
export async function loadAppRoutes(): Promise<AppRoute[]> {
  return (await loadRouteTree()).routes;
}

/** The routes with pages or resources, and the pathless layouts they render in. */
async function loadRouteTree() {
  const routes: AppRoute[] = [];
  const layouts: LayoutRoute[] = [];
  const visit = async (entries: ConfigEntry[], parentId: string) => {
    for (const entry of entries) {
      const id = entry.id ?? entry.file.replace(/\.[jt]sx?$/, "");
      const module = asBuilt(await import(/* @vite-ignore */ `../${entry.file}`));
      if (entry.children) {
        if (entry.path || entry.index) throw new Error(`${id}: only pathless layouts nest`);
        layouts.push({ id, parentId, module });
        await visit(entry.children as ConfigEntry[], id);
        continue;
      }
      const pattern = entry.index ? "/" : `/${entry.path ?? ""}`;
      routes.push({ id, file: entry.file, pattern, parentId, module });
    }
  };
  await visit(routeConfig as ConfigEntry[], "root");
  return { routes, layouts };
}

/**
 * The production request path in a test: the Hono shell (app.server.ts) in front
 * of React Router's request handler, over a server build made from app/routes.ts
 * and the real route modules. Only the client assets are stand-ins (no page
 * here loads them).
 */
export async function createTestApp() {
  const { routes: appRoutes, layouts } = await loadRouteTree();
  const rootModule = asBuilt(root as unknown as RouteModule);
  const routes: ServerBuild["routes"] = { root: { id: "root", path: "", module: rootModule } };
  const manifestRoutes: ServerBuild["assets"]["routes"] = {};
  const all = [
    { id: "root", pattern: "", parentId: undefined, module: rootModule },
    ...layouts.map((l) => ({ ...l, pattern: null })),
    ...appRoutes,
  ];
  for (const r of all) {
    const isRoot = r.id === "root";
    const index = r.pattern === "/" && !isRoot ? true : undefined;
    const path = index || r.pattern === null ? undefined : r.pattern.replace(/^\//, "");
    const parentId = r.parentId;
    if (!isRoot) routes[r.id] = { id: r.id, parentId, path, index, module: r.module };
    manifestRoutes[r.id] = {
      id: r.id,
      parentId,
      path: isRoot ? "" : path,
      index,
      module: `/assets/${r.id}.js`,
      imports: [],
      css: [],
      hasAction: Boolean(r.module.action),
      hasLoader: Boolean(r.module.loader),
      hasClientAction: false,
      hasClientLoader: false,
      hasClientMiddleware: false,
      hasErrorBoundary: Boolean(r.module.ErrorBoundary),
      clientActionModule: undefined,
      clientLoaderModule: undefined,
      clientMiddlewareModule: undefined,
      hydrateFallbackModule: undefined,
    };
  }
  const build: ServerBuild = {
    entry: { module: entry },
    routes,
    assets: {
      entry: { module: "/assets/entry.client.js", imports: [] },
      routes: manifestRoutes,
      url: "/assets/manifest.js",
      version: "test",
    },
    basename: "/",
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: { ...defaultFuture, ...reactRouterConfig.future },
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  };
  const handleRequest = createRequestHandler(build, "production");
  const app = createHttpApp({
    publicOrigin: origin,
    staticFiles: new Map(),
    handleRequest: (request) => handleRequest(request),
  });
  return { app, routes: appRoutes };
}
