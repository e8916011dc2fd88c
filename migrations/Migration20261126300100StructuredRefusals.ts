import { Migration } from '@mikro-orm/migrations';

/**
 * `mf_refuse(code, details)` raises SQLSTATE `MF001` with its code inside the detail, as one JSON
 * object (`{"code": ..., <details>}`): checkout reads the refusal from there, never from the message
 * text (issue 28). The message stays readable for a person.
 */
export class Migration20261126300100StructuredRefusals extends Migration {
  override name = 'Migration20261126300100StructuredRefusals';

  override async up(): Promise<void> {
    this.addSql(`create or replace function mf_refuse(code text, details json) returns int language plpgsql as $$
      begin
        raise exception using errcode = 'MF001', message = 'refused: ' || code,
          detail = (coalesce(details::jsonb, '{}'::jsonb) || jsonb_build_object('code', code))::text;
      end $$`);
  }

  override async down(): Promise<void> {
    this.addSql(`create or replace function mf_refuse(code text, details json) returns int language plpgsql as $$
      begin
        raise exception using errcode = 'MF001', message = code, detail = coalesce(details::text, '{}');
      end $$`);
  }
}
