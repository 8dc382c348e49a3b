/**
 * A plain line under the top bar when the demo runs its simulated fleet faster than the clock:
 * the charts' rates are then per real second (speed-notice.ts says how). Reads the server's flags
 * once; says nothing when they cannot be read or the speed is 1.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { api } from '../../api/api-client.js';
import { speedNotice } from './speed-notice.js';
import './SpeedBanner.css';

/** The banner. */
export function SpeedBanner(): ReactNode {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    const ac = new AbortController();
    api()
      .flags(ac.signal)
      .then((flags) => setText(speedNotice(flags)))
      .catch(() => undefined); // no flags (an older server, a remote one): nothing to say
    return () => ac.abort();
  }, []);
  if (text === null) return null;
  return (
    <div className="speed-banner" role="note" data-testid="speed-banner">
      {text}
    </div>
  );
}
