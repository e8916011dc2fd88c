import { z } from 'zod';
import { InvitationView, JoinedShopView, MemberView, SentInvitationView } from '../../services/shops/member-views.js';
import { ShopApplicationView } from '../../services/shops/application-view.js';
import { ShopStateView } from '../../services/shops/shop-state-view.js';
import { named, page } from './common.js';

export const ShopApplication = named('ShopApplication', ShopApplicationView);
export const ShopApplicationPage = named('ShopApplicationPage', page(ShopApplication));

export const ShopState = named('ShopState', ShopStateView);

export const ShopMember = named('ShopMember', MemberView);
export const ShopMemberList = named('ShopMemberList', z.strictObject({ items: z.array(ShopMember) }));
export const JoinedShop = named('JoinedShop', JoinedShopView);
export const MemberInvitation = named('MemberInvitation', InvitationView);
export const MemberInvitationList = named('MemberInvitationList', z.strictObject({ items: z.array(MemberInvitation) }));
export const SentInvitation = named('SentInvitation', SentInvitationView);
