import { useCallback, useEffect, useState } from 'react';
import { getPictureCode, type PictureCode } from '../api/login.ts';

/** The picture captcha: loaded on mount (or when `active` turns on), refreshed on click or failure. */
export function usePictureCode(active = true) {
  const [code, setCode] = useState<PictureCode | null>(null);
  const [loading, setLoading] = useState(false);

  const refresh = useCallback(async () => {
    setLoading(true);
    try {
      setCode(await getPictureCode());
    } catch {
      setCode(null);
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    if (active) void refresh();
  }, [active, refresh]);

  return { picture: code?.picture, uniqueCode: code?.unique_code ?? '', loading, refresh };
}
