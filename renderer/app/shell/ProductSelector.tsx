// 源码检测 / 二进制检测 / 私服安全: the product selector (stored in localStorage cairn.product).
// Changing it re-runs the home redirect.
import { SegmentedControl } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import { PRODUCT_LABEL, isProduct } from '../../../contract/enums.ts';
import { homeRedirect } from '../../../contract/navigation.ts';
import { useAppDispatch, useAppSelector, usePermissions, selectProduct } from '../hooks.ts';
import { sessionActions } from '../sessionSlice.ts';
import { PRODUCTS } from '../storage.ts';
import { zh } from '../../i18n/zh-CN.ts';

export function ProductSelector() {
  const product = useAppSelector(selectProduct);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const has = usePermissions();
  return (
    <SegmentedControl
      className="cairn-product-selector"
      size="small"
      aria-label={zh.product.label}
      options={PRODUCTS.map((p) => ({ value: String(p), label: PRODUCT_LABEL[p] }))}
      value={String(product)}
      onValueChange={(value) => {
        const next = Number(value);
        if (!isProduct(next) || next === product) return;
        dispatch(sessionActions.productChanged(next));
        navigate(homeRedirect(next, has));
      }}
    />
  );
}
