# A price formatter that always says USD, called from three modules that each know their currency.
mkdir -p src test
cat > package.json <<'JSON'
{ "name": "shop", "type": "module", "scripts": { "test": "node --test" } }
JSON
cat > src/money.js <<'JS'
export function formatPrice(amount) {
  return `${amount.toFixed(2)} USD`;
}
JS
cat > src/invoice.js <<'JS'
import { formatPrice } from './money.js';

export function invoiceLines(invoice) {
  return invoice.items.map((item) => `${item.name}: ${formatPrice(item.price * item.quantity)}`);
}
JS
cat > src/cart.js <<'JS'
import { formatPrice } from './money.js';

export function cartSummary(cart) {
  const total = cart.items.reduce((sum, item) => sum + item.price, 0);
  return `${cart.items.length} items, ${formatPrice(total)}`;
}
JS
cat > src/shipping.js <<'JS'
import { formatPrice } from './money.js';

export function shippingNote(order) {
  if (order.shipping === 0) return 'Free shipping';
  return `Shipping: ${formatPrice(order.shipping)}`;
}
JS
cat > test/money.test.js <<'JS'
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatPrice } from '../src/money.js';
import { invoiceLines } from '../src/invoice.js';
import { cartSummary } from '../src/cart.js';
import { shippingNote } from '../src/shipping.js';

test('prices', () => {
  assert.equal(formatPrice(3), '3.00 USD');
  assert.equal(formatPrice(0.5), '0.50 USD');
});

test('the callers', () => {
  const usd = { currency: 'USD', items: [{ name: 'Pen', price: 1.5, quantity: 2 }] };
  assert.deepEqual(invoiceLines(usd), ['Pen: 3.00 USD']);
  assert.equal(cartSummary(usd), '1 items, 1.50 USD');
  assert.equal(shippingNote({ currency: 'USD', shipping: 4 }), 'Shipping: 4.00 USD');
  assert.equal(shippingNote({ currency: 'USD', shipping: 0 }), 'Free shipping');
});
JS
