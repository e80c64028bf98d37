// User-agent checks: spec §4 mobile landing and spec §2 unsupported-browser hint.

export function isMobileUserAgent(ua: string = navigator.userAgent): boolean {
  return /Android|iPhone|iPod|iPad|Windows Phone|HarmonyOS|Mobile/i.test(ua);
}

function version(ua: string, re: RegExp): number {
  const m = ua.match(re);
  return m ? Number.parseInt(m[1], 10) : 0;
}

/** Chrome/Chromium, Firefox, Edge (Chromium) and modern Safari are supported. */
export function isSupportedBrowser(ua: string = navigator.userAgent): boolean {
  if (/MSIE |Trident\//.test(ua) || /Edge\/\d/.test(ua)) return false;
  if (/Edg\//.test(ua)) return version(ua, /Edg\/(\d+)/) >= 80;
  if (/Firefox\//.test(ua)) return version(ua, /Firefox\/(\d+)/) >= 78;
  if (/Chrome\/|CriOS\//.test(ua)) return version(ua, /(?:Chrome|CriOS)\/(\d+)/) >= 80;
  if (/Safari\//.test(ua) && /Version\//.test(ua)) return version(ua, /Version\/(\d+)/) >= 14;
  return false;
}
