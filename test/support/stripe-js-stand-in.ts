import type { BrowserContext } from 'playwright-core';

/**
 * A stand-in for Stripe.js (https://js.stripe.com/v3/), for browser tests on a machine that cannot
 * reach Stripe. It keeps the part of Stripe.js's documented surface the storefront uses, and its shape:
 * - `Stripe(publishableKey)` refuses anything but a `pk_` key;
 * - `stripe.elements({ clientSecret }).create('payment').mount(node)` puts the card fields in an
 *   iframe served from js.stripe.com, so the storefront's own script cannot read what is typed;
 * - `stripe.confirmPayment({ elements, confirmParams: { return_url } })`: the frame sends the card to
 *   `POST /v1/payment_methods` and confirms the intent with its client secret at
 *   `POST /v1/payment_intents/{id}/confirm` (both form-encoded, with the publishable key in `key`, as
 *   Stripe.js sends them); a declined card resolves `{ error }` and the page stays, a success sends
 *   the browser to `return_url` with `payment_intent`, `payment_intent_client_secret` and
 *   `redirect_status`, as Stripe does.
 * The API calls go to https://api.stripe.com; `routeStripeTo` sends both origins to the stand-in.
 * Not covered: the real Payment Element's look, wallets and other methods, 3-D Secure challenges.
 */
export function stripeJsSource(): string {
  return `(function () {
  var FRAME_ORIGIN = 'https://js.stripe.com';
  function integrationError(message) { var e = new Error(message); e.name = 'IntegrationError'; return e; }
  function Stripe(key) {
    if (typeof key !== 'string' || key.indexOf('pk_') !== 0) throw integrationError('Invalid API Key provided: ' + key);
    return {
      elements: function (options) {
        if (!options || typeof options.clientSecret !== 'string') throw integrationError('elements() needs a clientSecret');
        var elements = { clientSecret: options.clientSecret, frame: null, create: function (type) {
          if (type !== 'payment') throw integrationError('Unknown element type: ' + type);
          var iframe = null;
          return {
            mount: function (target) {
              iframe = document.createElement('iframe');
              iframe.name = '__privateStripeFrame' + Math.random().toString(36).slice(2);
              iframe.title = 'Secure payment input frame';
              iframe.setAttribute('allow', 'payment *');
              iframe.src = FRAME_ORIGIN + '/v3/elements-inner-payment.html#key=' + encodeURIComponent(key);
              iframe.style.cssText = 'border:0;width:100%;height:220px;display:block';
              target.appendChild(iframe);
              elements.frame = iframe;
            },
            destroy: function () { if (iframe) iframe.remove(); elements.frame = null; iframe = null; },
          };
        } };
        return elements;
      },
      confirmPayment: function (options) {
        var frame = options.elements && options.elements.frame;
        if (!frame || !frame.contentWindow) return Promise.resolve({ error: { type: 'validation_error', message: 'The payment form is not ready.' } });
        var id = Math.random().toString(36).slice(2);
        return new Promise(function (resolve) {
          function answer(event) {
            if (event.origin !== FRAME_ORIGIN || event.source !== frame.contentWindow || !event.data || event.data.id !== id) return;
            window.removeEventListener('message', answer);
            if (event.data.error) return resolve({ error: event.data.error });
            var intent = event.data.paymentIntent;
            var back = new URL(options.confirmParams.return_url);
            back.searchParams.set('payment_intent', intent.id);
            back.searchParams.set('payment_intent_client_secret', intent.client_secret);
            back.searchParams.set('redirect_status', intent.status === 'succeeded' ? 'succeeded' : intent.status);
            window.location.assign(back.toString());
          }
          window.addEventListener('message', answer);
          frame.contentWindow.postMessage({ id: id, type: 'confirm', clientSecret: options.elements.clientSecret, returnUrl: options.confirmParams.return_url }, FRAME_ORIGIN);
        });
      },
    };
  }
  window.Stripe = Stripe;
})();
`;
}

/** The card frame (js.stripe.com's origin): card number, expiry and CVC, sent only to Stripe's API. */
export function paymentFrameHtml(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Card</title>
<style>body{font:14px system-ui,sans-serif;margin:0;padding:4px}label{display:block;margin:0 0 8px}input{display:block;width:100%;box-sizing:border-box;padding:6px;font:inherit}</style>
</head><body>
<form onsubmit="return false">
  <label>Card number <input name="number" autocomplete="cc-number" inputmode="numeric"></label>
  <label>Expiration date (MM / YY) <input name="exp" autocomplete="cc-exp" inputmode="numeric"></label>
  <label>Security code <input name="cvc" autocomplete="cc-csc" inputmode="numeric"></label>
</form>
<script>
  var key = new URLSearchParams(location.hash.slice(1)).get('key');
  function post(path, fields) {
    var body = new URLSearchParams(fields);
    body.set('key', key);
    return fetch('https://api.stripe.com' + path, { method: 'POST', body: body }).then(function (res) {
      return res.json().then(function (json) { if (!res.ok) throw json.error; return json; });
    });
  }
  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || !event.data || event.data.type !== 'confirm') return;
    var form = document.forms[0];
    var expiry = form.exp.value.split('/');
    var reply = function (message) { message.id = event.data.id; window.parent.postMessage(message, event.origin); };
    post('/v1/payment_methods', { type: 'card', 'card[number]': form.number.value.replace(/\\s/g, ''), 'card[exp_month]': (expiry[0] || '').trim(), 'card[exp_year]': (expiry[1] || '').trim(), 'card[cvc]': form.cvc.value })
      .then(function (method) {
        var intentId = event.data.clientSecret.split('_secret_')[0];
        return post('/v1/payment_intents/' + intentId + '/confirm', { client_secret: event.data.clientSecret, payment_method: method.id, return_url: event.data.returnUrl });
      })
      .then(function (intent) { reply({ paymentIntent: intent }); })
      .catch(function (error) { reply({ error: { type: (error && error.type) || 'api_error', code: error && error.code, message: (error && error.message) || String(error) } }); });
  });
</script>
</body></html>`;
}

/** The browser context's requests to Stripe's two origins go to the stand-in (as a hosts file would send them). */
export async function routeStripeTo(context: BrowserContext, standInUrl: string): Promise<void> {
  await context.route(/^https:\/\/(js|api)\.stripe\.com\//, async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    const contentType = request.headers()['content-type'];
    const answer = await fetch(`${standInUrl}${url.pathname}${url.search}`, {
      method: request.method(),
      headers: contentType ? { 'content-type': contentType } : {},
      body: request.method() === 'GET' || request.method() === 'HEAD' ? undefined : (request.postDataBuffer() ?? undefined),
    });
    const headers = Object.fromEntries(answer.headers.entries());
    // A page closed meanwhile no longer takes the answer: nothing is waiting for it.
    await route.fulfill({ status: answer.status, headers, body: Buffer.from(await answer.arrayBuffer()) }).catch(() => undefined);
  });
}
