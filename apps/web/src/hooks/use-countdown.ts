import { useCallback, useEffect, useRef, useState } from 'react';

/** A seconds countdown that ticks once a second (SMS resend buttons, spec §4). */
export function useCountdown() {
  const [seconds, setSeconds] = useState(0);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);

  const stop = useCallback(() => {
    if (timer.current) clearInterval(timer.current);
    timer.current = null;
  }, []);

  const start = useCallback(
    (from: number) => {
      stop();
      if (from <= 0) return setSeconds(0);
      setSeconds(from);
      timer.current = setInterval(() => {
        setSeconds((s) => {
          if (s <= 1) stop();
          return Math.max(0, s - 1);
        });
      }, 1000);
    },
    [stop],
  );

  const reset = useCallback(() => {
    stop();
    setSeconds(0);
  }, [stop]);

  useEffect(() => stop, [stop]);

  return { seconds, running: seconds > 0, start, reset };
}
