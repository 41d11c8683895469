import { useCallback, useState, type FormEvent } from 'react';
import { useStrings } from '../../config/PlatformProvider';
import { formatCredits, formatMoney, useAccountClients, useApiResource, useFeedback, useSignInState } from '../AccountPanel';
import { formatString } from '../../config/strings';
import type { Balance } from '../../api/types';

/** Credits to buy as typed: a whole number, 1 or more; null otherwise. */
export function parseQuantity(text: string): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

export interface UseCreditsPanelOptions {
  /**
   * Called with the payment page's URL and the quantity. Return `false` to stay on the page (the
   * default goes there with `window.location.assign`).
   */
  onCheckout?: (checkout: { url: string; quantity: number }) => boolean | void;
}

/**
 * What `quantity` credits cost, with the currency ('1,000 credits cost €10.00, paid at checkout.'),
 * before the buyer leaves for the checkout; null until the balance brought the price or for a
 * quantity that is not one.
 */
export function priceText(template: string, quantity: string, balance: Balance | null | undefined): string | null {
  const parsed = parseQuantity(quantity);
  const price = balance?.credit_price;
  if (parsed === null || !price) return null;
  return formatString(template, { credits: formatCredits(parsed), price: formatMoney(parsed * price.amount_minor, price.currency) });
}

/** Headless credits panel: the balance and buying credits through the payment provider's checkout. */
export function useCreditsPanel({ onCheckout }: UseCreditsPanelOptions = {}) {
  const { payment } = useAccountClients();
  const strings = useStrings();
  const feedback = useFeedback();
  const signIn = useSignInState();
  const load = useCallback(() => payment.balance(), [payment]);
  const warnLoad = useCallback(() => feedback.show('warning', strings.account.loadProblem), [feedback, strings.account.loadProblem]);
  const balance = useApiResource(load, { enabled: signIn === 'signed-in', onError: warnLoad });
  const [quantity, setQuantity] = useState('1000');
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  const buy = async (event?: FormEvent) => {
    event?.preventDefault();
    const parsed = parseQuantity(quantity);
    if (parsed === null) return setError(strings.account.quantityInvalid);
    setPending(true);
    const result = await payment.createCheckoutSession(parsed);
    setPending(false);
    if (!result.ok) return feedback.show('warning', result.error || strings.account.unexpected);
    if (onCheckout?.({ url: result.data.url, quantity: parsed }) !== false) window.location.assign(result.data.url);
  };

  return {
    balance,
    quantity,
    price: priceText(strings.account.creditsPrice, quantity, balance.data),
    setQuantity: (value: string) => {
      setQuantity(value);
      setError(undefined);
    },
    error,
    buy,
    pending,
    feedback,
  };
}
