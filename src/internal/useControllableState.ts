import { useCallback, useRef, useState } from 'react';

/**
 * The `value` / `defaultValue` / `onValueChange` trio (Radix style) every stateful widget takes:
 * controlled while `value` is defined, otherwise internal state seeded from `defaultValue`.
 * `onChange` hears every change either way, once per change (setting the current value again is
 * no change). The setter is stable for as long as the component stays (un)controlled and accepts
 * an updater like `useState`'s; `onChange` may be a new function on every render.
 */
export function useControllableState<T>(
  value: T | undefined,
  defaultValue: T,
  onChange?: (next: T) => void,
): [T, (next: T | ((previous: T) => T)) => void] {
  const [internal, setInternal] = useState(defaultValue);
  const controlled = value !== undefined;
  const current = controlled ? value : internal;
  // Read by the setter, so two updates in one event see each other (and a stale render does
  // not undo the first).
  const currentRef = useRef(current);
  currentRef.current = current;
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  const set = useCallback(
    (next: T | ((previous: T) => T)) => {
      const resolved = typeof next === 'function' ? (next as (previous: T) => T)(currentRef.current) : next;
      if (Object.is(resolved, currentRef.current)) return;
      currentRef.current = resolved;
      if (!controlled) setInternal(resolved);
      onChangeRef.current?.(resolved);
    },
    [controlled],
  );
  return [current, set];
}
