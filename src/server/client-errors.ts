import http from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError, errorBody } from '../errors.js';

/** The refusal for a request Node's HTTP parser could not take (before any route or middleware). */
function refusalOf(error: NodeJS.ErrnoException): AppError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('HEADERS_TOO_LARGE', 431, 'The request headers are too large', { limit_bytes: http.maxHeaderSize });
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('REQUEST_TIMEOUT', 408, 'The request did not arrive in time');
    default:
      return new AppError('BAD_REQUEST', 400, 'The request is not valid HTTP');
  }
}

/**
 * Node answers what its HTTP parser refuses (headers too large, a malformed request line, a request
 * too slow to arrive) by itself, with a bare status line and no body. This answers it in the common
 * error shape instead, written straight to the socket since there is no request or response object.
 */
export function answerClientErrors(server: http.Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A response already under way on this keep-alive connection, or a client gone: nothing to say.
    const inProgress = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (error.code === 'ECONNRESET' || !socket.writable || inProgress) {
      socket.destroy();
      return;
    }
    const refusal = refusalOf(error);
    const body = JSON.stringify(errorBody(refusal));
    socket.end(
      `HTTP/1.1 ${refusal.status} ${http.STATUS_CODES[refusal.status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n' +
        body,
    );
  });
}
