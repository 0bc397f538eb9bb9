import type { AppDeps } from '../context.js';
import * as channels from './channels.js';
import { Permissions } from '../permissions.js';
import { PageQuery } from '../paging.js';
import { page } from '../http/envelope.js';
import { createRouter, endpoint } from '../http/router.js';
import { em } from '../http/middleware/auth.js';
import * as s from './channels.schemas.js';
import { deleteEndpoint } from '../http/shared-endpoints.js';

const tags = ['notification channels'];
const permissions = [Permissions.ADMIN];

/** `/api/v1/notification-channels` — the tenant's e-mail and chat channels (workflow:admin). */
export function notificationChannelRoutes(deps: AppDeps) {
  const r = createRouter();
  endpoint(
    r,
    {
      method: 'get',
      path: '/',
      tags,
      summary: 'The tenant’s notification channels',
      permissions,
      query: PageQuery,
      response: page(s.Channel),
    },
    ({ principal, query, c }) => channels.listChannels(em(c), principal.tenantId, query),
  );
  endpoint(
    r,
    {
      method: 'get',
      path: '/{id}',
      tags,
      summary: 'One notification channel',
      permissions,
      params: s.ChannelIdParam,
      response: s.Channel,
    },
    ({ principal, params, c }) => channels.getChannel(em(c), principal.tenantId, params.id),
  );
  endpoint(
    r,
    {
      method: 'post',
      path: '/',
      tags,
      summary: 'Add a channel: e-mail (SMTP), Slack, Teams, Feishu/Lark, DingTalk, WeCom or a signed webhook',
      permissions,
      body: s.ChannelBody,
      status: 201,
      response: s.Channel,
      responseDescription: 'Created',
    },
    ({ principal: p, body, c }) => channels.createChannel(em(c), deps.config, p.tenantId, p.userId, body),
  );
  endpoint(
    r,
    {
      method: 'put',
      path: '/{id}',
      tags,
      summary: 'Replace a channel (secrets not sent are kept)',
      permissions,
      params: s.ChannelIdParam,
      body: s.ChannelReplaceBody,
      response: s.Channel,
    },
    ({ principal: p, params, body, c }) =>
      channels.updateChannel(em(c), deps.config, p.tenantId, p.userId, params.id, body),
  );
  deleteEndpoint(
    r,
    {
      path: '/{id}',
      tags,
      summary: 'Remove a channel, its addresses and its deliveries',
      permissions,
      params: s.ChannelIdParam,
    },
    ({ principal, params, c }) => channels.deleteChannel(em(c), principal.tenantId, params.id),
  );
  endpoint(
    r,
    {
      method: 'post',
      path: '/{id}/test',
      tags,
      summary: 'Send a test message now; answers what the remote server said (`ok: false` when it refused)',
      permissions,
      params: s.ChannelIdParam,
      body: s.TestBody,
      optionalBody: true,
      response: s.TestResult,
    },
    ({ principal, params, body, c }) => channels.testChannel(em(c), deps.config, principal, params.id, body),
  );
  endpoint(
    r,
    {
      method: 'get',
      path: '/{id}/addresses',
      tags,
      summary: 'Users’ addresses on the channel',
      permissions,
      params: s.ChannelIdParam,
      query: PageQuery,
      response: page(s.Address),
    },
    ({ principal, params, query, c }) => channels.listAddresses(em(c), principal.tenantId, params.id, query),
  );
  endpoint(
    r,
    {
      method: 'put',
      path: '/{id}/addresses/{userId}',
      tags,
      summary: 'Set a user’s address on the channel (an e-mail address, or their chat user id)',
      permissions,
      params: s.AddressParams,
      body: s.AddressBody,
      response: s.Address,
    },
    ({ principal, params, body, c }) =>
      channels.setAddress(em(c), principal.tenantId, params.id, params.userId, body.address),
  );
  deleteEndpoint(
    r,
    {
      path: '/{id}/addresses/{userId}',
      tags,
      summary: 'Remove a user’s address on the channel',
      permissions,
      params: s.AddressParams,
    },
    ({ principal, params, c }) => channels.deleteAddress(em(c), principal.tenantId, params.id, params.userId),
  );
  return r;
}

/** `/api/v1/notification-deliveries` — the delivery log (workflow:admin). */
export function notificationDeliveryRoutes() {
  const r = createRouter();
  endpoint(
    r,
    {
      method: 'get',
      path: '/',
      tags,
      summary: 'The delivery log: every message a channel sent, is retrying, skipped or failed; newest first',
      permissions,
      query: s.DeliveryQuery,
      response: page(s.Delivery),
    },
    ({ principal, query, c }) => channels.listDeliveries(em(c), principal.tenantId, query),
  );
  return r;
}
