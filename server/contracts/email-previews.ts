/** The admin's email previews (issue 37, item 3); plain types in shared/api/email-previews.ts. */
import { Type } from 'typebox';
import type * as api from '../../shared/api/email-previews.ts';
import { RECEIPT_KINDS } from '../../shared/api/email-previews.ts';
import { LOCALES } from '../../shared/locales.ts';
import { LiteralUnion, Ok, schemaFor } from './common.ts';

export const EmailPreviewsResponse = schemaFor<api.EmailPreviewsResponse>()(
  Ok(
    Type.Object({
      previews: Type.Array(
        Type.Object({
          kind: LiteralUnion(RECEIPT_KINDS),
          locale: LiteralUnion(LOCALES),
          subject: Type.String(),
          html: Type.String(),
          text: Type.String(),
        }),
      ),
    }),
  ),
);
