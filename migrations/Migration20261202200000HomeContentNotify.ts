import { Migration } from '@mikro-orm/migrations';

/**
 * Every change of the home content tells every server process, at commit (NOTIFY): a process
 * keeps the storefront's home content and reads it again only after a change (issue 43,
 * src/db/change-listener.ts). A statement trigger, so any writer (the admin routes, the seed, a
 * maintenance statement) is heard, once per statement.
 */
export class Migration20261202200000HomeContentNotify extends Migration {
  override name = 'Migration20261202200000HomeContentNotify';

  override async up(): Promise<void> {
    this.addSql(`create function mf_home_content_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('mallfront_home_content', '');
  return null;
end $$`);
    this.addSql('create trigger home_content_item_changed after insert or update or delete or truncate on home_content_item for each statement execute function mf_home_content_changed()');
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger home_content_item_changed on home_content_item');
    this.addSql('drop function mf_home_content_changed()');
  }
}
