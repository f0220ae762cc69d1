/**
 * Users: search by email (as the admin types, after a short pause; 3 characters at least, as the
 * server's trigram search needs), paged; a user's row opens their detail panel at `#users/<id>`.
 * The search and page survive opening a user and coming back.
 */
import { useCallback, useEffect, useState } from 'react';
import type { AdminUser } from '../../../shared/api/admin.ts';
import {
  ADMIN_PAGE_SIZE,
  USER_SEARCH_MIN_LENGTH,
  USER_SEARCH_TOO_SHORT,
} from '../../../shared/admin.ts';
import { EMAIL_MAX_LENGTH } from '../../../shared/auth.ts';
import { listUsers, type Page } from '../../lib/api/admin.ts';
import * as icons from '../../lib/icons/index.ts';
import Icon from '../shared/Icon.tsx';
import AdminView from './AdminView.tsx';
import Badge, { humanize } from './Badge.tsx';
import { dateColumn, type Column } from './DataTable.tsx';
import { Empty } from './ListStates.tsx';
import PagedTable from './PagedTable.tsx';
import { sectionHref, userHref } from './route.ts';
import { FIRST_PAGE, usePagedList, type PagePosition } from './use-admin-data.ts';
import UserDetail from './UserDetail.tsx';

/** Long enough not to query on every keystroke, short enough to feel immediate. */
const SEARCH_DEBOUNCE_MS = 300;

const COLUMNS: Column<AdminUser>[] = [
  {
    header: 'Email',
    unlabelled: true,
    className: 'admin-table__primary',
    cell: (user) => (
      <>
        <a href={userHref(user.id)}>{user.email}</a>
        {user.name && <span className="admin-table__sub">{user.name}</span>}
      </>
    ),
  },
  { header: 'Credits', numeric: true, cell: (user) => user.credits.toLocaleString() },
  {
    header: 'Blog access',
    cell: (user) =>
      user.can_manage_blog ? (
        <Badge tone="good">Blog manager</Badge>
      ) : (
        <span className="admin-muted">No</span>
      ),
  },
  { header: 'Sign-in', cell: (user) => humanize(user.provider) },
  dateColumn('Joined', (user) => user.created_at),
];

/** A search the server takes: none, or at least USER_SEARCH_MIN_LENGTH characters. */
const searchable = (text: string) => text.length === 0 || text.length >= USER_SEARCH_MIN_LENGTH;

/** The list mounts afresh after a user's panel; UsersView keeps its search and page. */
function UserList({
  search,
  position,
  onPosition,
}: {
  search: string;
  position: PagePosition;
  onPosition: (position: PagePosition) => void;
}) {
  const fetchPage = useCallback((page: Page) => listUsers(search, page), [search]);
  const list = usePagedList(fetchPage, ADMIN_PAGE_SIZE, [position, onPosition]);
  return (
    <PagedTable
      list={list}
      rowsOf={(data) => data.users}
      what="users"
      empty={
        search ? (
          <Empty title={`No users match “${search}”.`}>
            The search looks for this text anywhere in the email address.
          </Empty>
        ) : (
          <Empty title="No users yet.">Accounts appear here after their first sign-in.</Empty>
        )
      }
      columns={COLUMNS}
      captionId="admin-users-caption"
      caption={search ? `Users matching “${search}”` : 'All users, newest first'}
      rowTestId="admin-user-row"
      pagerLabel="Users"
    />
  );
}

export default function UsersView({ userId }: { userId: string | null }) {
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState('');
  const [position, setPosition] = useState<PagePosition>(FIRST_PAGE);
  const typed = query.trim();
  const tooShort = !searchable(typed);

  useEffect(() => {
    const next = query.trim();
    if (next === search || !searchable(next)) return;
    const timer = setTimeout(() => {
      setSearch(next);
      setPosition(FIRST_PAGE);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query, search]);

  if (userId) {
    return (
      <section className="admin-view" aria-labelledby="admin-view-title">
        <a className="admin-back" href={sectionHref('users')}>
          <Icon icon={icons.chevronLeft} />
          All users
        </a>
        <UserDetail key={userId} userId={userId} />
      </section>
    );
  }

  const searchForm = (
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
          maxLength={EMAIL_MAX_LENGTH}
          aria-describedby={tooShort ? 'admin-search-hint' : undefined}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => {
            // Enter searches at once instead of waiting for the pause.
            if (event.key === 'Enter' && searchable(query.trim())) {
              setSearch(query.trim());
              setPosition(FIRST_PAGE);
            }
          }}
        />
        {tooShort && (
          <span id="admin-search-hint" className="admin-toolbar__hint" role="status">
            {USER_SEARCH_TOO_SHORT}
          </span>
        )}
      </label>
    </form>
  );

  return (
    <AdminView title="Users" tools={searchForm}>
      <UserList search={search} position={position} onPosition={setPosition} />
    </AdminView>
  );
}
