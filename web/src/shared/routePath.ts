/**
 * The path of a route whose path holds parameters (`/platform/:type/add`): each `:name` is replaced by
 * `pathParams[name]`, URL-encoded. A missing value is a programming error and throws before anything is sent.
 */
export function fillPath(path: string, pathParams: Readonly<Record<string, string>>): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const v = pathParams[name];
    if (v === undefined) throw new Error(`${path}: no value for :${name}`);
    return encodeURIComponent(v);
  });
}
