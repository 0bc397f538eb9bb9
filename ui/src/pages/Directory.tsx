import { t } from '../i18n';
import { api, call } from '../lib/api';
import { ErrorText, Section, useAsync } from '../components/ui';

export function Directory() {
  const users = useAsync(() => call(api.GET('/api/v1/users', { params: { query: { pageSize: 200 } } })), []);
  const roles = useAsync(() => call(api.GET('/api/v1/roles', { params: { query: { pageSize: 200 } } })), []);
  const depts = useAsync(() => call(api.GET('/api/v1/departments', { params: { query: { pageSize: 200 } } })), []);
  return (
    <>
      <h1>{t.admin.directory}</h1>
      <Section title={t.admin.users} id="users">
        <ErrorText error={users.error} />
        <div class="table-wrap">
          <table class="list">
            <thead>
              <tr>
                <th scope="col">{t.login.username}</th>
                <th scope="col">{t.admin.displayName}</th>
                <th scope="col">{t.admin.department}</th>
                <th scope="col">{t.admin.manager}</th>
                <th scope="col">{t.admin.rolesCol}</th>
                <th scope="col">{t.admin.activeCol}</th>
              </tr>
            </thead>
            <tbody>
              {users.data?.items.map((u) => (
                <tr>
                  <td>{u.username}</td>
                  <td>{u.displayName ?? ''}</td>
                  <td>{u.deptId ?? '—'}</td>
                  <td>{u.managerId ?? '—'}</td>
                  <td>{u.roles.join(', ')}</td>
                  <td>{u.active ? t.common.yes : t.common.no}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>
      <Section title={t.admin.roles} id="roles">
        <ErrorText error={roles.error} />
        <table class="list">
          <thead>
            <tr>
              <th scope="col">{t.admin.key}</th>
              <th scope="col">{t.admin.name}</th>
              <th scope="col">{t.admin.permissions}</th>
            </tr>
          </thead>
          <tbody>
            {roles.data?.items.map((r) => (
              <tr>
                <td>{r.code}</td>
                <td>{r.name}</td>
                <td>{r.permissions.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
      <Section title={t.admin.departments} id="departments">
        <ErrorText error={depts.error} />
        <table class="list">
          <thead>
            <tr>
              <th scope="col">{t.admin.key}</th>
              <th scope="col">{t.admin.name}</th>
              <th scope="col">{t.admin.parent}</th>
              <th scope="col">{t.admin.leader}</th>
            </tr>
          </thead>
          <tbody>
            {depts.data?.items.map((d) => (
              <tr>
                <td>{d.id}</td>
                <td>{d.name}</td>
                <td>{d.parentId ?? '—'}</td>
                <td>{d.leaderId ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
    </>
  );
}
