/**
 * Open/close state of a popover anchored to an element: closes on a click outside the anchor
 * and on Escape (returning focus to the anchor's first button).
 */
import { useEffect, useRef, useState, type RefObject } from 'react';

/** The popover's state and handlers. */
export interface Popover {
  readonly open: boolean;
  readonly anchorRef: RefObject<HTMLDivElement | null>;
  readonly toggle: () => void;
  readonly close: () => void;
}

/** Creates the state. */
export function usePopover(): Popover {
  const [open, setOpen] = useState(false);
  const anchorRef = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    if (!open) return undefined;
    const onDown = (e: PointerEvent): void => {
      if (anchorRef.current !== null && !anchorRef.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        setOpen(false);
        anchorRef.current?.querySelector('button')?.focus();
      }
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey, true);
    };
  }, [open]);
  return { open, anchorRef, toggle: () => setOpen((o) => !o), close: () => setOpen(false) };
}
