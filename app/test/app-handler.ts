import { createRequestHandler } from "react-router";
import reactRouterConfig from "../../react-router.config";
import * as entry from "../entry.server";
import * as root from "../root";
import routeConfig from "../routes";
import { createHttpApp } from "../server/http/app.server";
import { origin } from "./helpers";
import { assembleServerBuild, type BuildRoute, type RouteModule } from "./server-build";

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
      const module = await import(/* @vite-ignore */ `../${entry.file}`);
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
  const pages = appRoutes.map((r): BuildRoute => {
    const index = r.pattern === "/" ? true : undefined;
    const path = index ? undefined : r.pattern.replace(/^\//, "");
    return { id: r.id, parentId: r.parentId, path, index, module: r.module };
  });
  const build = assembleServerBuild({
    entry,
    routes: [
      {
        id: "root",
        parentId: undefined,
        path: "",
        index: undefined,
        module: root as unknown as RouteModule,
      },
      ...layouts.map((l) => ({ ...l, path: undefined, index: undefined })),
      ...pages,
    ],
    future: reactRouterConfig.future ?? {},
  });
  const handleRequest = createRequestHandler(build, "production");
  const app = createHttpApp({
    publicOrigin: origin,
    staticFiles: new Map(),
    handleRequest: (request) => handleRequest(request),
  });
  return { app, routes: appRoutes };
}
