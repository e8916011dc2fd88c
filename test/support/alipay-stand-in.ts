import http from 'node:http';
import { createSign, createVerify, randomBytes, randomInt, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Alipay's OpenAPI gateway (`gateway.do`, protocol v2), speaking its documented
 * wire protocol so the official `alipay-sdk` talks to it unchanged (pointed at it by its `gateway`):
 * - every request carries the common parameters (`app_id`, `method`, `charset`, `sign_type`,
 *   `timestamp`, `version`, `biz_content`...) and `sign`: RSA2 (SHA256withRSA, base64) over the
 *   parameters other than `sign`, sorted by name, `name=value` joined by `&`, checked here with the
 *   app's public key;
 * - the cashier pages (`alipay.trade.page.pay`, `alipay.trade.wap.pay`) are opened by the customer's
 *   browser with a GET of the signed URL: the trade exists from then on, waiting for the buyer;
 * - API calls are form POSTs answered with JSON `{"<method>_response": {...}, "sign": "..."}`, the sign
 *   made with Alipay's private key over the response object's text exactly as sent; business
 *   refusals are `code: 40004` with a `sub_code` (`ACQ.TRADE_NOT_EXIST`...);
 * - asynchronous notifications are form posts (`application/x-www-form-urlencoded`) to the trade's
 *   `notify_url`, signed with Alipay's private key over the fields other than `sign` and `sign_type`;
 *   Alipay reads the plain answer `success` as received and resends anything else.
 *
 * What it covers: page and mobile-web pay (the signed URL), `alipay.trade.query`, `alipay.trade.refund`
 * (`out_request_no` idempotent: a repeat answers `fund_change: N`), `alipay.trade.fastpay.refund.query`,
 * trade-status notifications (paid, closed, refunds), and for a browser a cashier page with one
 * "pay" button that pays the trade, notifies, and returns to `return_url` with signed return
 * parameters. What only a real Alipay sandbox account shows:
 * the cashier itself (login, QR code, the buyer's balance and cards), certificate mode, the 15-minute
 * timestamp window, Alipay's resend schedule, settlement and its reports.
 */
export interface StandInTrade {
  out_trade_no: string;
  trade_no: string;
  method: 'alipay.trade.page.pay' | 'alipay.trade.wap.pay';
  product_code: string;
  subject: string;
  /** Yuan text, as asked. */
  total_amount: string;
  timeout_express: string | undefined;
  notify_url: string;
  return_url: string;
  trade_status: 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_FINISHED' | 'TRADE_CLOSED';
  gmt_create: string;
  gmt_payment: string | null;
  /** Refunds by `out_request_no`, in fen. */
  refunds: Map<string, number>;
}

export interface StandInRequest {
  method: string;
  params: Record<string, string>;
  biz: Record<string, unknown>;
  signatureValid: boolean;
}

export interface AlipayStandIn {
  /** The gateway address (ALIPAY_GATEWAY_URL). */
  url: string;
  trades: Map<string, StandInTrade>;
  requests: StandInRequest[];
  /** Answer every request with HTTP 503 (an outage). */
  failing: boolean;
  /** Sign answers with this key instead of Alipay's (a forged answer). */
  answerKey: KeyObject | null;
  /** The customer's browser opens the cashier URL: the trade exists at Alipay from then on. */
  open(url: string): Promise<{ status: number; text: string }>;
  /** The buyer pays: TRADE_SUCCESS. */
  pay(outTradeNo: string): StandInTrade;
  /** Alipay closes the trade unpaid (its timeout). */
  closeTrade(outTradeNo: string): StandInTrade;
  /** The trade-status notification Alipay would send now, as its form fields and body (`override` changes fields before signing; `key` signs). */
  notification(outTradeNo: string, override?: Record<string, string | undefined>, key?: KeyObject): { fields: Record<string, string>; body: string };
  /** Posts a notification body to the trade's notify_url as Alipay does. */
  deliver(outTradeNo: string, body: string): Promise<{ status: number; text: string; contentType: string | null }>;
  close(): Promise<void>;
}

/** Alipay's sign content: the fields other than `omit`, without empty values, sorted by name, `name=value` joined by `&`. */
export function signContent(fields: Record<string, string>, omit: string[]): string {
  return Object.keys(fields)
    .filter((key) => !omit.includes(key) && fields[key] !== '' && fields[key] !== undefined)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('&');
}

export const rsa2 = (text: string, key: KeyObject) => createSign('RSA-SHA256').update(text, 'utf8').sign(key, 'base64');

/** Alipay's time format (Beijing time: UTC+8), `yyyy-MM-dd HH:mm:ss`. */
const alipayTime = (date = new Date()) => new Date(date.getTime() + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');

const fen = (text: string) => (/^\d+(\.\d{1,2})?$/.test(text) ? Number(text.split('.')[0]) * 100 + Number((text.split('.')[1] ?? '').padEnd(2, '0')) : NaN);
/** A biz_content field as text (a field of another type is no text). */
const text = (value: unknown) => (typeof value === 'string' ? value : '');
const yuan = (amount: number) => `${Math.floor(amount / 100)}.${String(amount % 100).padStart(2, '0')}`;

export async function startAlipayStandIn(options: { appId: string; appPublicKey: KeyObject; alipayPrivateKey: KeyObject }): Promise<AlipayStandIn> {
  const trades = new Map<string, StandInTrade>();
  const requests: StandInRequest[] = [];
  const stand: Partial<AlipayStandIn> = { trades, requests, failing: false, answerKey: null };

  /** Reads and checks a request's common parameters; an error text when it does not check out. */
  const check = (params: Record<string, string>): { error: string } | { biz: Record<string, unknown> } => {
    const signatureValid = Boolean(params.sign) && createVerify('RSA-SHA256').update(signContent(params, ['sign']), 'utf8').verify(options.appPublicKey, params.sign ?? '', 'base64');
    let biz: Record<string, unknown>;
    try {
      biz = JSON.parse(params.biz_content ?? '{}') as Record<string, unknown>;
    } catch {
      biz = {};
    }
    requests.push({ method: params.method ?? '', params, biz, signatureValid });
    if (params.app_id !== options.appId) return { error: 'isv.invalid-app-id' };
    if (params.sign_type !== 'RSA2' || params.charset !== 'utf-8' || params.version !== '1.0' || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(params.timestamp ?? '')) return { error: 'isv.invalid-parameter' };
    if (!signatureValid) return { error: 'isv.invalid-signature' };
    return { biz };
  };

  const answer = (res: http.ServerResponse, method: string, body: Record<string, unknown>) => {
    const inner = JSON.stringify(body);
    const key = stand.answerKey ?? options.alipayPrivateKey;
    res.writeHead(200, { 'content-type': 'application/json;charset=utf-8', trace_id: randomBytes(8).toString('hex') });
    res.end(`{"${method.replaceAll('.', '_')}_response":${inner},"sign":"${rsa2(inner, key)}"}`);
  };
  const business = (subCode: string, subMsg: string) => ({ code: '40004', msg: 'Business Failed', sub_code: subCode, sub_msg: subMsg });

  const refunded = (trade: StandInTrade) => [...trade.refunds.values()].reduce((n, a) => n + a, 0);

  const api = (method: string, biz: Record<string, unknown>): Record<string, unknown> => {
    const trade = trades.get(text(biz.out_trade_no));
    switch (method) {
      case 'alipay.trade.query': {
        if (!trade) return business('ACQ.TRADE_NOT_EXIST', '交易不存在');
        const paid = trade.trade_status !== 'WAIT_BUYER_PAY' && trade.gmt_payment !== null;
        return {
          code: '10000', msg: 'Success', trade_no: trade.trade_no, out_trade_no: trade.out_trade_no, buyer_logon_id: 'buy***@example.com',
          trade_status: trade.trade_status, total_amount: trade.total_amount,
          ...(paid ? { buyer_pay_amount: trade.total_amount, receipt_amount: trade.total_amount, send_pay_date: trade.gmt_payment } : {}),
        };
      }
      case 'alipay.trade.refund': {
        if (!trade) return business('ACQ.TRADE_NOT_EXIST', '交易不存在');
        const amount = fen(text(biz.refund_amount));
        const requestNo = text(biz.out_request_no) || trade.out_trade_no;
        if (!(amount > 0)) return { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-parameter', sub_msg: 'refund_amount' };
        const earlier = trade.refunds.get(requestNo);
        if (earlier !== undefined && earlier !== amount) return business('ACQ.DISCORDANT_REPEAT_REQUEST', '请求信息不一致');
        if (earlier === undefined) {
          if (trade.trade_status !== 'TRADE_SUCCESS') return business('ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
          if (refunded(trade) + amount > fen(trade.total_amount)) return business('ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', '退款金额超限');
          trade.refunds.set(requestNo, amount);
          // A trade refunded in full is closed.
          if (refunded(trade) === fen(trade.total_amount)) trade.trade_status = 'TRADE_CLOSED';
        }
        return {
          code: '10000', msg: 'Success', trade_no: trade.trade_no, out_trade_no: trade.out_trade_no, buyer_logon_id: 'buy***@example.com',
          fund_change: earlier === undefined ? 'Y' : 'N', refund_fee: yuan(refunded(trade)), gmt_refund_pay: alipayTime(),
        };
      }
      case 'alipay.trade.fastpay.refund.query': {
        if (!trade) return business('ACQ.TRADE_NOT_EXIST', '交易不存在');
        const requestNo = text(biz.out_request_no);
        const amount = trade.refunds.get(requestNo);
        // Documented: a refund never made is answered 10000 without its fields.
        if (amount === undefined) return { code: '10000', msg: 'Success' };
        return { code: '10000', msg: 'Success', trade_no: trade.trade_no, out_trade_no: trade.out_trade_no, out_request_no: requestNo, total_amount: trade.total_amount, refund_amount: yuan(amount), refund_status: 'REFUND_SUCCESS' };
      }
      default:
        return { code: '40004', msg: 'Business Failed', sub_code: 'isv.invalid-method', sub_msg: `不存在的方法名 ${method}` };
    }
  };

  /** The customer's browser at the cashier: the signed page URL creates the trade. */
  const cashier = (params: Record<string, string>): { status: number; text: string } => {
    const checked = check(params);
    if ('error' in checked) return { status: 400, text: `<html><body>错误代码 ${checked.error}</body></html>` };
    const { biz } = checked;
    const method = params.method as StandInTrade['method'];
    const productCode = method === 'alipay.trade.wap.pay' ? 'QUICK_WAP_WAY' : 'FAST_INSTANT_TRADE_PAY';
    const amount = fen(text(biz.total_amount));
    if (biz.product_code !== productCode || !(amount >= 1 && amount <= 10_000_000_000) || typeof biz.out_trade_no !== 'string' || !biz.subject) {
      return { status: 400, text: '<html><body>错误代码 isv.invalid-parameter</body></html>' };
    }
    const known = trades.get(biz.out_trade_no);
    if (known && known.total_amount !== biz.total_amount) return { status: 400, text: '<html><body>错误代码 ACQ.CONTEXT_INCONSISTENT</body></html>' };
    if (!known) {
      trades.set(biz.out_trade_no, {
        out_trade_no: biz.out_trade_no, trade_no: `2026${String(Date.now()).padStart(13, '0')}${String(randomInt(1e10)).padStart(11, '0')}`, method, product_code: productCode,
        subject: text(biz.subject), total_amount: text(biz.total_amount), timeout_express: biz.timeout_express as string | undefined,
        notify_url: params.notify_url ?? '', return_url: params.return_url ?? '', trade_status: 'WAIT_BUYER_PAY', gmt_create: alipayTime(), gmt_payment: null, refunds: new Map(),
      });
    }
    // The buyer's side, for a browser: one button that pays (a real cashier asks for a login, a QR scan or a card).
    return {
      status: 200,
      text: `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>支付宝收银台</title></head><body><h1>支付宝收银台 ${biz.out_trade_no} ¥${text(biz.total_amount)}</h1>
<form method="post" action="/gateway.do/pay"><input type="hidden" name="out_trade_no" value="${biz.out_trade_no}"><button type="submit">确认付款 Pay</button></form></body></html>`,
    };
  };

  /**
   * The buyer paid at the cashier: the trade succeeds, Alipay's notification goes to its notify_url
   * (answered before the browser moves on, as it usually is), and the browser returns to return_url
   * with Alipay's signed synchronous return parameters.
   */
  const buyerPays = async (res: http.ServerResponse, outTradeNo: string) => {
    const trade = trades.get(outTradeNo);
    if (!trade || trade.trade_status !== 'WAIT_BUYER_PAY') {
      res.writeHead(400, { 'content-type': 'text/html;charset=utf-8' });
      return res.end('<html><body>错误代码 ACQ.TRADE_STATUS_ERROR</body></html>');
    }
    const paid = stand as AlipayStandIn;
    paid.pay(outTradeNo);
    await paid.deliver(outTradeNo, paid.notification(outTradeNo).body).catch(() => undefined);
    const back: Record<string, string> = {
      app_id: options.appId, method: `${trade.method}.return`, charset: 'utf-8', version: '1.0', timestamp: alipayTime(),
      out_trade_no: trade.out_trade_no, trade_no: trade.trade_no, total_amount: trade.total_amount, seller_id: '2088101117955611',
    };
    const signed = { ...back, sign_type: 'RSA2', sign: rsa2(signContent(back, ['sign', 'sign_type']), options.alipayPrivateKey) };
    res.writeHead(302, { location: `${trade.return_url}?${new URLSearchParams(signed).toString()}` });
    res.end();
  };

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      if (stand.failing) {
        res.writeHead(503, { 'content-type': 'text/plain' });
        return res.end('Service Unavailable');
      }
      if (req.method === 'POST' && url.pathname === '/gateway.do/pay') return void buyerPays(res, new URLSearchParams(raw).get('out_trade_no') ?? '');
      // A browser asks for the page's icon: none, and no error in its console.
      if (url.pathname === '/favicon.ico') {
        res.writeHead(204);
        return res.end();
      }
      if (url.pathname !== '/gateway.do') {
        res.writeHead(404);
        return res.end();
      }
      const params: Record<string, string> = Object.fromEntries(url.searchParams);
      for (const [key, value] of new URLSearchParams(raw)) params[key] = value;
      if (req.method === 'GET') {
        const page = cashier(params);
        res.writeHead(page.status, { 'content-type': 'text/html;charset=utf-8' });
        return res.end(page.text);
      }
      const method = params.method ?? '';
      const checked = check(params);
      if ('error' in checked) return answer(res, method, { code: '40002', msg: 'Invalid Arguments', sub_code: checked.error, sub_msg: checked.error });
      return answer(res, method, api(method, checked.biz));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const tradeOf = (outTradeNo: string) => {
    const trade = trades.get(outTradeNo);
    if (!trade) throw new Error(`the stand-in has no trade ${outTradeNo} (was its cashier page opened?)`);
    return trade;
  };

  return Object.assign(stand, {
    url: `http://127.0.0.1:${port}/gateway.do`,
    async open(pageUrl: string) {
      const res = await fetch(pageUrl);
      return { status: res.status, text: await res.text() };
    },
    pay(outTradeNo: string) {
      const trade = tradeOf(outTradeNo);
      Object.assign(trade, { trade_status: 'TRADE_SUCCESS', gmt_payment: alipayTime() });
      return trade;
    },
    closeTrade(outTradeNo: string) {
      const trade = tradeOf(outTradeNo);
      trade.trade_status = 'TRADE_CLOSED';
      return trade;
    },
    notification(outTradeNo: string, override: Record<string, string | undefined> = {}, key: KeyObject = options.alipayPrivateKey) {
      const trade = tradeOf(outTradeNo);
      const refundedFen = refunded(trade);
      const fields: Record<string, string | undefined> = {
        notify_time: alipayTime(), notify_type: 'trade_status_sync', notify_id: `2026${randomBytes(12).toString('hex')}`, app_id: options.appId, charset: 'utf-8', version: '1.0',
        trade_no: trade.trade_no, out_trade_no: trade.out_trade_no, buyer_id: '2088102177846880', seller_id: '2088101117955611', trade_status: trade.trade_status,
        total_amount: trade.total_amount, subject: trade.subject, gmt_create: trade.gmt_create,
        ...(trade.gmt_payment ? { gmt_payment: trade.gmt_payment, receipt_amount: trade.total_amount, buyer_pay_amount: trade.total_amount } : {}),
        ...(refundedFen > 0 ? { refund_fee: yuan(refundedFen), gmt_refund: alipayTime(), out_biz_no: [...trade.refunds.keys()].at(-1) } : {}),
        ...override,
      };
      const defined = Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined));
      const signed = { ...defined, sign_type: 'RSA2', sign: rsa2(signContent(defined, ['sign', 'sign_type']), key) };
      return { fields: signed, body: new URLSearchParams(signed).toString() };
    },
    async deliver(outTradeNo: string, body: string) {
      const res = await fetch(tradeOf(outTradeNo).notify_url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, body });
      return { status: res.status, text: await res.text(), contentType: res.headers.get('content-type') };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as AlipayStandIn;
}
