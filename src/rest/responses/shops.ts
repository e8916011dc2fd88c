import { z } from 'zod';
import { ShopStatus } from '../../entities/shop.entity.js';
import { InvitationView, JoinedShopView, MemberView } from '../../services/shops/member-views.js';
import { ShopApplicationView } from '../../services/shops/application-view.js';
import { id, named, page, timestamp } from './common.js';

export const ShopApplication = named('ShopApplication', ShopApplicationView);
export const ShopApplicationPage = named('ShopApplicationPage', page(ShopApplication));

export const ShopState = named(
  'ShopState',
  z.strictObject({
    shopId: id,
    status: z.enum(ShopStatus),
    /** The reason of the last suspension. */
    reason: z.string().optional(),
    /** When the state last changed (absent: active since the shop was created). */
    changedAt: timestamp.optional(),
  }),
);

export const ShopMember = named('ShopMember', MemberView);
export const ShopMemberList = named('ShopMemberList', z.strictObject({ items: z.array(ShopMember) }));
export const JoinedShop = named('JoinedShop', JoinedShopView);
export const MemberInvitation = named('MemberInvitation', InvitationView);
export const MemberInvitationList = named('MemberInvitationList', z.strictObject({ items: z.array(MemberInvitation) }));
export const SentInvitation = named(
  'SentInvitation',
  z.strictObject({
    invitation: MemberInvitation,
    token: z.string().describe('The one-time token of the link the invitee opens; shown this once, only its hash is kept'),
    emailSent: z.boolean().describe('Whether the mail server (SMTP_URL) took the invitation email at once; false: it is tried again for about a day (not without SMTP_URL), and you may pass the link on yourself'),
  }),
);
