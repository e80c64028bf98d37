import { SPECIFIC_BUSINESS } from '@kaipiao/shared';
import { Card } from 'antd';
import { type Dispatch, memo } from 'react';
import type { DraftAction } from '../../utils/draft.ts';
import { sameDraftParts } from '../../utils/memo.ts';
import type { Draft } from '../../utils/types.ts';
import { BuildingBlock } from './building-block.tsx';
import { PassengerBlock } from './passenger-block.tsx';
import { RentBlock } from './rent-block.tsx';
import { TransportBlock } from './transport-block.tsx';

/** The chosen 特定业务's block (domain.md §4), or nothing. */
function SpecificBlockImpl({ draft, dispatch }: { draft: Draft; dispatch: Dispatch<DraftAction> }) {
  const code = draft.specific_business_code;
  if (!code) return null;
  return (
    <Card variant="borderless" title={`特定业务 · ${SPECIFIC_BUSINESS[code]}`} style={{ marginTop: 16 }}>
      {code === '03' && <BuildingBlock draft={draft} dispatch={dispatch} />}
      {code === '04' && <TransportBlock draft={draft} dispatch={dispatch} />}
      {code === '06' && <RentBlock draft={draft} dispatch={dispatch} />}
      {code === '09' && <PassengerBlock draft={draft} dispatch={dispatch} />}
    </Card>
  );
}

export const SpecificBlock = memo(
  SpecificBlockImpl,
  sameDraftParts(['specific_business_code', 'building', 'transports', 'rents', 'passengers', 'lines']),
);
