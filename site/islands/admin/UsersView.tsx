/**
 * Users: search by email (as the admin types, after a short pause), paged; a user's row opens
 * their detail panel at `#users/<id>`. The search and page survive opening a user and coming back.
 */
import { useCallback, useEffect, useState } from 'react';
import { listUsers } from '../../lib/admin-api.ts';
import Icon from '../shared/Icon.tsx';
import Badge, { humanize } from './Badge.tsx';
import { formatDateTime } from './format.ts';
import { Empty, Loading, LoadError } from './ListStates.tsx';
import Pager, { rangeText } from './Pager.tsx';
import { sectionHref, userHref } from './route.ts';
import TableScroll from './TableScroll.tsx';
import { useAdminData } from './use-admin-data.ts';
import UserDetail from './UserDetail.tsx';

const PAGE_SIZE = 20;
/** Long enough not to query on every keystroke, short enough to feel immediate. */
const SEARCH_DEBOUNCE_MS = 300;

function UserList({
  search,
  offset,
  onOffset,
}: {
  search: string;
  offset: number;
  onOffset: (offset: number) => void;
}) {
  const load = useCallback(() => listUsers(search, { offset, limit: PAGE_SIZE }), [search, offset]);
  const { data, loading, error, reload } = useAdminData(load);

  if (error) return <LoadError message={error} onRetry={reload} />;
  if (!data) return <Loading what="users" />;
  if (data.users.length === 0) {
    return search ? (
      <Empty title={`No users match “${search}”.`}>
        The search looks for this text anywhere in the email address.
      </Empty>
    ) : (
      <Empty title="No users yet.">Accounts appear here after their first sign-in.</Empty>
    );
  }
  return (
    <>
      <TableScroll captionId="admin-users-caption" busy={loading}>
        <table className="admin-table" role="table">
          <caption id="admin-users-caption">
            {search ? `Users matching “${search}”` : 'All users, newest first'}:{' '}
            {rangeText(offset, data.users.length, data.total)}
          </caption>
          <thead role="rowgroup">
            <tr role="row">
              <th scope="col" role="columnheader">
                Email
              </th>
              <th scope="col" role="columnheader" className="is-numeric">
                Credits
              </th>
              <th scope="col" role="columnheader">
                Blog access
              </th>
              <th scope="col" role="columnheader">
                Sign-in
              </th>
              <th scope="col" role="columnheader">
                Joined
              </th>
            </tr>
          </thead>
          <tbody role="rowgroup">
            {data.users.map((user) => (
              <tr role="row" key={user.id} data-testid="admin-user-row">
                <td role="cell" className="admin-table__primary">
                  <a href={userHref(user.id)}>{user.email}</a>
                  {user.name && <span className="admin-table__sub">{user.name}</span>}
                </td>
                <td role="cell" data-label="Credits" className="is-numeric">
                  {user.credits.toLocaleString()}
                </td>
                <td role="cell" data-label="Blog access">
                  {user.can_manage_blog ? (
                    <Badge tone="good">Blog manager</Badge>
                  ) : (
                    <span className="admin-muted">No</span>
                  )}
                </td>
                <td role="cell" data-label="Sign-in">
                  {humanize(user.provider)}
                </td>
                <td role="cell" data-label="Joined" className="is-nowrap">
                  <time dateTime={user.created_at}>{formatDateTime(user.created_at)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <Pager
        label="Users"
        offset={offset}
        limit={PAGE_SIZE}
        total={data.total}
        busy={loading}
        onChange={onOffset}
      />
    </>
  );
}

export default function UsersView({ userId }: { userId: string | null }) {
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);

  useEffect(() => {
    const next = query.trim();
    if (next === search) return;
    const timer = setTimeout(() => {
      setSearch(next);
      setOffset(0);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query, search]);

  if (userId) {
    return (
      <section className="admin-view" aria-labelledby="admin-view-title">
        <a className="admin-back" href={sectionHref('users')}>
          <Icon>
            <path d="m15 6-6 6 6 6" />
          </Icon>
          All users
        </a>
        <UserDetail key={userId} userId={userId} />
      </section>
    );
  }

  return (
    <section className="admin-view" aria-labelledby="admin-view-title">
      <div className="admin-view__head">
        <h2 id="admin-view-title" tabIndex={-1}>
          Users
        </h2>
        <form className="admin-toolbar" role="search" onSubmit={(event) => event.preventDefault()}>
          <label className="admin-toolbar__field admin-toolbar__field--grow">
            <span>Search by email</span>
            <input
              className="input admin-search"
              type="search"
              placeholder="e.g. ann@ or example.com"
              autoComplete="off"
              spellCheck={false}
              value={query}
              maxLength={254}
              onChange={(event) => setQuery(event.target.value)}
              onKeyDown={(event) => {
                // Enter searches at once instead of waiting for the pause.
                if (event.key === 'Enter') {
                  setSearch(query.trim());
                  setOffset(0);
                }
              }}
            />
          </label>
        </form>
      </div>
      <UserList search={search} offset={offset} onOffset={setOffset} />
    </section>
  );
}
