import type { Socket } from 'node:net';
import { Parser } from 'pg-protocol/dist/parser.js';
import { DataRowMessage, type BackendMessage } from 'pg-protocol/dist/messages.js';

/**
 * How every connection of the pool reads PostgreSQL's answers: `pg-protocol`'s own parser, except for
 * its rows (DataRow messages), which are read here.
 *
 * Why: a row is a count and, per column, a length and that many bytes of text. `pg-protocol` reads
 * each column with its own `buffer.toString('utf-8', ...)`: a native call per column, behind an
 * encoding lookup and a dispatch shared with every other `toString` of the process (megamorphic in
 * this server). On the REST listing (20 rows of 15 columns) that was ~50 µs of server CPU per request
 * (issue 43, docs/performance.md). Here an ASCII column is cut out of the row's text, decoded once;
 * only a column with other bytes is decoded on its own. Every other message, the framing of
 * messages across socket chunks and the errors are `pg-protocol`'s.
 *
 * Relies on `pg-protocol` 1.16's `handlePacket(offset, code, length, bytes)` (private in its types:
 * hence the cast below); the version is pinned with `pg`'s, and test/row-parser.test.ts reads every
 * kind of column through it.
 */
const DATA_ROW = 0x44; // 'D'

interface PacketParser {
  parse(buffer: Buffer, callback: (message: BackendMessage) => void): void;
  handlePacket(offset: number, code: number, length: number, bytes: Buffer): BackendMessage;
}
const PgParser = Parser as unknown as new () => PacketParser;

export class RowParser extends PgParser {
  override handlePacket(offset: number, code: number, length: number, bytes: Buffer): BackendMessage {
    if (code !== DATA_ROW) return super.handlePacket(offset, code, length, bytes);
    const count = bytes.readInt16BE(offset);
    const fields: (string | null)[] = new Array<string | null>(count);
    // The row as Latin-1, one character per byte (so it lines up with the bytes), made at its first ASCII column.
    let row: string | null = null;
    let at = offset + 2;
    for (let i = 0; i < count; i++) {
      const size = bytes.readInt32BE(at);
      at += 4;
      if (size === -1) {
        fields[i] = null;
      } else if (ascii(bytes, at, at + size)) {
        // Most columns (ids, numbers, timestamps, codes): cut out of the row's text, no native call each.
        row ??= bytes.toString('latin1', offset, offset + length - 4);
        fields[i] = row.slice(at - offset, at - offset + size);
      } else {
        // Any other text: UTF-8, as pg-protocol reads every column (no encoding given: no lookup of one).
        fields[i] = bytes.toString(undefined, at, at + size);
      }
      if (size > 0) at += size;
    }
    return new DataRowMessage(length, fields);
  }
}

function ascii(bytes: Buffer, from: number, to: number): boolean {
  for (let at = from; at < to; at++) if (bytes[at] > 0x7f) return false;
  return true;
}

/** What `pg`'s Connection is to this module: an emitter of the messages read from its socket. */
interface MessageEmitter {
  emit(event: string, message: BackendMessage): boolean;
  _emitMessage: boolean;
}

/**
 * `pg`'s `Connection.attachListeners` with a RowParser (the same events, named as `pg` names them):
 * DeadlineClient puts it in place of its connection's own, before the connection is opened.
 */
export function attachRowListeners(this: MessageEmitter, stream: Socket): void {
  const parser = new RowParser();
  stream.on('data', (buffer: Buffer) =>
    parser.parse(buffer, (message) => {
      const eventName = message.name === 'error' ? 'errorMessage' : message.name;
      if (this._emitMessage) this.emit('message', message);
      this.emit(eventName, message);
    }),
  );
}
