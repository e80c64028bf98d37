/** Only same-site absolute paths are followed as a `redirect` param, never another origin or login. */
export function safeRedirect(redirect: string | null | undefined): string | null {
  if (!redirect?.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\')) {
    return null;
  }
  if (redirect.startsWith('/user/login')) return null;
  return redirect;
}
