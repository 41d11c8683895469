import { useCallback, useEffect, useRef, useState } from 'react';

export type FeedbackTone = 'success' | 'warning' | 'danger';

export interface Feedback {
  tone: FeedbackTone;
  message: string;
}

/**
 * The message a panel shows about its last action, inside the panel: an embedded panel has no
 * page-wide message overlay to rely on. Success messages may clear themselves after a while
 * (spec: the credential toast shows for 3 s); warnings stay until the next action or dismissal.
 */
export function useFeedback() {
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const show = useCallback((tone: FeedbackTone, message: string, autoClearMs?: number) => {
    clearTimeout(timer.current);
    setFeedback({ tone, message });
    if (autoClearMs !== undefined && autoClearMs > 0) timer.current = setTimeout(() => setFeedback(null), autoClearMs);
  }, []);
  const clear = useCallback(() => {
    clearTimeout(timer.current);
    setFeedback(null);
  }, []);
  return { feedback, show, clear };
}

export type FeedbackController = ReturnType<typeof useFeedback>;
