import { useEffect, useRef, useState, type FormEvent } from 'react';

/**
 * Confirms a Stripe PaymentIntent in the browser with Stripe's own client library, loaded as Stripe
 * documents it (Stripe.js from js.stripe.com, never bundled or self-hosted) with the Payment Element:
 * the card is typed into Stripe's frame and never reaches this server. The publishable key comes with
 * the payment's next step (the server's STRIPE_PUBLISHABLE_KEY, public by design), so one storefront
 * build serves any account. Stripe then sends the customer back to the waiting page, which still waits
 * for the server's verified webhook.
 */
const STRIPE_JS = 'https://js.stripe.com/v3/';

interface StripeElement {
  mount(target: HTMLElement): void;
  destroy(): void;
}
interface StripeElements {
  create(type: 'payment'): StripeElement;
}
interface StripeClient {
  elements(options: { clientSecret: string }): StripeElements;
  confirmPayment(options: { elements: StripeElements; confirmParams: { return_url: string } }): Promise<{ error?: { message?: string } }>;
}
type StripeFactory = (publishableKey: string) => StripeClient;

let loading: Promise<StripeFactory> | null = null;

function loadStripeJs(): Promise<StripeFactory> {
  const existing = (window as unknown as { Stripe?: StripeFactory }).Stripe;
  if (existing) return Promise.resolve(existing);
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = STRIPE_JS;
    script.async = true;
    script.onload = () => {
      const factory = (window as unknown as { Stripe?: StripeFactory }).Stripe;
      if (factory) resolve(factory);
      else reject(new Error('Stripe.js loaded without Stripe'));
    };
    script.onerror = () => {
      loading = null;
      reject(new Error('Stripe.js could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

export function StripeConfirm({ clientSecret, publishableKey }: { clientSecret: string; publishableKey: string | null | undefined }) {
  const frame = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState<{ stripe: StripeClient; elements: StripeElements } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  useEffect(() => {
    const key = publishableKey;
    if (!key) {
      setProblem('Card payments are not set up in this storefront (no Stripe publishable key).');
      return;
    }
    let element: StripeElement | null = null;
    let gone = false;
    loadStripeJs()
      .then((factory) => {
        if (gone || !frame.current) return;
        const stripe = factory(key);
        const elements = stripe.elements({ clientSecret });
        element = elements.create('payment');
        element.mount(frame.current);
        setReady({ stripe, elements });
      })
      .catch((error: unknown) => setProblem(error instanceof Error ? error.message : String(error)));
    return () => {
      gone = true;
      element?.destroy();
    };
  }, [clientSecret, publishableKey]);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!ready) return;
    setSending(true);
    // Stripe sends the customer back here (the waiting page), which asks the server, never the return's query.
    const { error } = await ready.stripe.confirmPayment({ elements: ready.elements, confirmParams: { return_url: `${location.origin}${location.pathname}` } });
    setSending(false);
    if (error) setProblem(error.message ?? 'The card was not accepted.');
  };
  return (
    <form className="stripe-confirm" onSubmit={submit} aria-labelledby="card-heading">
      <h2 id="card-heading">Card details</h2>
      <div ref={frame} className="stripe-frame" />
      {problem ? (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      ) : null}
      <button type="submit" className="primary" disabled={!ready || sending}>
        {sending ? 'Confirming…' : 'Pay by card'}
      </button>
    </form>
  );
}
