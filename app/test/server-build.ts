import { createRequire } from "node:module";
import {
  type ServerBuild,
  UNSAFE_withComponentProps,
  UNSAFE_withErrorBoundaryProps,
  UNSAFE_withHydrateFallbackProps,
} from "react-router";

// React Router makes a server build only through its Vite plugin. The tests make
// one from the route modules themselves, which needs the shape of that build and
// the wrappers the plugin puts around pages (React Router's `UNSAFE_*` exports).
// Neither is a public API: this is the one place that knows them, written for one
// version and refusing any other, so that an upgrade fails here, with its reason,
// rather than somewhere in a route test.

/** The version of react-router whose build shape this module copies. */
export const writtenForReactRouter = "7.18.4";

export type RouteModule = NonNullable<ServerBuild["routes"][string]>["module"];

/** A route of the build: the root (parentId undefined), a pathless layout, or a page. */
export type BuildRoute = {
  id: string;
  parentId: string | undefined;
  path: string | undefined;
  index: true | undefined;
  module: RouteModule;
};

/** React Router's defaults for what react-router.config.ts does not set. */
const defaultFuture: ServerBuild["future"] = {
  v8_middleware: false,
  v8_passThroughRequests: false,
  v8_trailingSlashAwareDataRequests: false,
};

/** The installed react-router's version. */
export function installedReactRouter(): string {
  return createRequire(import.meta.url)("react-router/package.json").version;
}

/** Throws, saying what to do, unless `installed` is the version this module copies. */
export function requireWrittenForVersion(installed: string) {
  if (installed !== writtenForReactRouter) {
    throw new Error(
      `app/test/server-build.ts copies React Router ${writtenForReactRouter}'s server build, ` +
        `but ${installed} is installed: compare ServerBuild and the UNSAFE_with*Props wrappers ` +
        "of the new version with this file, then update writtenForReactRouter.",
    );
  }
}

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

/**
 * The server build React Router's Vite plugin would make from these routes (the
 * root first), with stand-ins for the client assets. Throws when the installed
 * react-router is not the version this was written for.
 */
export function assembleServerBuild(options: {
  entry: ServerBuild["entry"]["module"];
  routes: readonly BuildRoute[];
  future: Partial<ServerBuild["future"]>;
}): ServerBuild {
  requireWrittenForVersion(installedReactRouter());
  const routes: ServerBuild["routes"] = {};
  const manifestRoutes: ServerBuild["assets"]["routes"] = {};
  for (const r of options.routes) {
    const module = asBuilt(r.module);
    routes[r.id] = { id: r.id, parentId: r.parentId, path: r.path, index: r.index, module };
    manifestRoutes[r.id] = {
      id: r.id,
      parentId: r.parentId,
      path: r.path,
      index: r.index,
      module: `/assets/${r.id}.js`,
      imports: [],
      css: [],
      hasAction: Boolean(module.action),
      hasLoader: Boolean(module.loader),
      hasClientAction: false,
      hasClientLoader: false,
      hasClientMiddleware: false,
      hasErrorBoundary: Boolean(module.ErrorBoundary),
      clientActionModule: undefined,
      clientLoaderModule: undefined,
      clientMiddlewareModule: undefined,
      hydrateFallbackModule: undefined,
    };
  }
  return {
    entry: { module: options.entry },
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
    future: { ...defaultFuture, ...options.future },
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  };
}
