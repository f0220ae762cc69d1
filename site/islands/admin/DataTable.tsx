/**
 * Every dashboard table, from a list of columns: a caption, `th scope="col"` headers, and cells
 * that carry their header as `data-label`, which DataTable.css shows on phones where each row
 * becomes a card. The explicit role attributes keep the table semantics that the cards'
 * `display: grid` drops in some browsers.
 *
 * The table sits in a frame: when the columns do not fit (a narrow window, a tablet) the table
 * scrolls sideways inside it, never the page, and the frame is focusable so the keyboard can
 * scroll it too.
 */
import { Fragment, type ReactNode } from 'react';
import { formatDateAndTime } from './format.ts';
import { userHref } from './route.ts';

export interface Column<Row> {
  /** The header, and the label a phone card shows above the value. */
  header: string;
  /** Only screen readers hear the header (a column of buttons); cards show no label. */
  headerHidden?: boolean;
  /** Cards show no label: the value names the row itself (a user's email). */
  unlabelled?: boolean;
  /** Figures: right-aligned in tabular digits, header included. */
  numeric?: boolean;
  /** The cell's layout classes (is-wide, is-nowrap…), or a function of the row. */
  className?: string | ((row: Row) => string);
  cell: (row: Row) => ReactNode;
}

export interface DataTableProps<Row extends { id: string }> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  /** Id of the <caption>, which also names the scrolling frame. */
  captionId: string;
  caption: ReactNode;
  /** For the e2e tests: `data-testid` on each body row. */
  rowTestId?: string;
  /** A newer page or a refresh is on its way: the rows fade until it arrives. */
  busy?: boolean;
  /**
   * What an opened row shows beneath it, across every column (a task's provider record); null
   * while it is closed. The row's own button opens it and names it with aria-controls.
   */
  rowDetails?: (row: Row) => ReactNode;
}

function cellClass<Row>(column: Column<Row>, row: Row): string | undefined {
  const own = typeof column.className === 'function' ? column.className(row) : column.className;
  return [column.numeric && 'is-numeric', own].filter(Boolean).join(' ') || undefined;
}

export default function DataTable<Row extends { id: string }>({
  columns,
  rows,
  captionId,
  caption,
  rowTestId,
  busy = false,
  rowDetails,
}: DataTableProps<Row>) {
  return (
    <div
      className={busy ? 'admin-table-scroll is-busy' : 'admin-table-scroll'}
      role="region"
      aria-labelledby={captionId}
      aria-busy={busy || undefined}
      tabIndex={0}
    >
      <table className="table admin-table" role="table">
        <caption id={captionId}>{caption}</caption>
        <thead role="rowgroup">
          <tr role="row">
            {columns.map((column) => (
              <th
                key={column.header}
                scope="col"
                role="columnheader"
                className={column.numeric ? 'is-numeric' : undefined}
              >
                {column.headerHidden ? (
                  <span className="sr-only">{column.header}</span>
                ) : (
                  column.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {rows.map((row) => {
            const details = rowDetails?.(row);
            return (
              <Fragment key={row.id}>
                <tr
                  role="row"
                  data-testid={rowTestId}
                  className={details ? 'has-details' : undefined}
                >
                  {columns.map((column) => (
                    <td
                      key={column.header}
                      role="cell"
                      data-label={
                        column.headerHidden || column.unlabelled ? undefined : column.header
                      }
                      className={cellClass(column, row)}
                    >
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
                {details && (
                  <tr role="row" className="admin-table__details-row">
                    <td role="cell" colSpan={columns.length}>
                      {details}
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

// Columns that several tables share.

/** When something happened, in the admin's locale, kept on one line. */
export function dateColumn<Row>(header: string, iso: (row: Row) => string): Column<Row> {
  return {
    header,
    className: 'is-nowrap',
    // The day, with the time beneath it: the column stays narrow enough for wide tables.
    cell: (row) => {
      const { date, time } = formatDateAndTime(iso(row));
      return (
        <time dateTime={iso(row)}>
          {date}
          {time && <span className="admin-table__sub">{time}</span>}
        </time>
      );
    },
  };
}

/** The user a row belongs to, by email, opening their panel. */
export function userColumn<Row extends { user_id: string; user_email: string }>(): Column<Row> {
  return {
    header: 'User',
    className: 'is-wide',
    cell: (row) => <a href={userHref(row.user_id)}>{row.user_email}</a>,
  };
}

/** A provider's id (a payment, an event), to look the row up there; long, so it may wrap. */
export function idColumn<Row extends { id: string }>(header: string): Column<Row> {
  return {
    header,
    className: 'is-wide',
    cell: (row) => <code className="admin-id">{row.id}</code>,
  };
}
