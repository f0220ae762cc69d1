/**
 * One page of an admin list as a table, with the pager beneath it; until the first page arrives,
 * that it is loading or why it could not load, and the view's own words when there are no rows.
 */
import type { ReactNode } from 'react';
import DataTable, { type DataTableProps } from './DataTable.tsx';
import { Loaded } from './ListStates.tsx';
import Pager, { rangeText } from './Pager.tsx';
import type { ListPageData, PagedList } from './use-admin-data.ts';

interface PagedTableProps<T extends ListPageData, Row extends { id: string }> extends Omit<
  DataTableProps<Row>,
  'rows' | 'caption' | 'busy'
> {
  list: PagedList<T>;
  /** The page's rows in the server's answer. */
  rowsOf: (data: T) => readonly Row[];
  /** "the audit log", for "Loading the audit log…". */
  what: string;
  /** What the view says when there are no rows. */
  empty: ReactNode;
  /** "Payments, newest first": the caption adds where the page is (": 21–40 of 134"). */
  caption: string;
  /** What the pages are of, for the pager's name: "Payments" → "Payments pages". */
  pagerLabel: string;
}

export default function PagedTable<T extends ListPageData, Row extends { id: string }>({
  list,
  rowsOf,
  what,
  empty,
  caption,
  pagerLabel,
  ...table
}: PagedTableProps<T, Row>) {
  return (
    <Loaded state={list} what={what}>
      {(data) => {
        const rows = rowsOf(data);
        if (rows.length === 0) return empty;
        return (
          <>
            <DataTable
              {...table}
              rows={rows}
              caption={`${caption}: ${rangeText(list.offset, rows.length, list.total)}`}
              busy={list.loading}
            />
            <Pager
              label={pagerLabel}
              offset={list.offset}
              limit={list.limit}
              total={list.total}
              hasPrevious={list.hasPrevious}
              hasNext={list.hasNext}
              busy={list.loading}
              onPrevious={list.previous}
              onNext={list.next}
            />
          </>
        );
      }}
    </Loaded>
  );
}
