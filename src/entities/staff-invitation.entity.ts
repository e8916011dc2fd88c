import { Entity, Enum, Check } from '@mikro-orm/decorators/legacy';
import { EntityName } from '@mikro-orm/core';
import { PlatformRole } from './user.entity.js';
import { InvitationLink } from './invitation-link.js';

/** An invitation to join the platform's staff with a platform role, by a one-time link (src/shared/one-time-link.ts). */
@Entity()
@Check({ name: 'staff_invitation_used_once', expression: 'accepted_at is null or revoked_at is null' })
export class StaffInvitation extends InvitationLink {
  declare [EntityName]?: 'StaffInvitation';

  @Enum({ items: () => PlatformRole })
  platformRole!: PlatformRole;
}
