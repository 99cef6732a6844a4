declare module "virtual:islands-entry" {
  /** The built URL of app/islands/hydrate-islands.tsx (empty in the client build, which never needs it). */
  const url: string;
  export default url;
}
