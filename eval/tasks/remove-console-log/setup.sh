# A small Node package whose source logs as it works; its tests must still pass without the logging.
mkdir -p src test
cat > package.json <<'JSON'
{ "name": "cart", "type": "module", "scripts": { "test": "node --test" } }
JSON
cat > src/cart.js <<'JS'
export function total(items) {
  console.log('total of', items.length, 'items');
  let sum = 0;
  for (const item of items) {
    sum += item.price * item.quantity;
    console.log('running sum', sum);
  }
  return sum;
}
JS
cat > src/discount.js <<'JS'
export function discount(sum, code) {
  if (code === 'HALF') {
    console.log('half price');
    return sum / 2;
  }
  console.log(`no discount for ${code}`);
  return sum;
}
JS
cat > src/format.js <<'JS'
export function money(cents) {
  const text = `$${(cents / 100).toFixed(2)}`;
  console.log(text);
  return text;
}
JS
cat > test/cart.test.js <<'JS'
import { test } from 'node:test';
import assert from 'node:assert';
import { total } from '../src/cart.js';
import { discount } from '../src/discount.js';
import { money } from '../src/format.js';

test('cart', () => {
  assert.equal(total([{ price: 250, quantity: 2 }, { price: 100, quantity: 1 }]), 600);
  assert.equal(discount(600, 'HALF'), 300);
  assert.equal(discount(600, 'NONE'), 600);
  assert.equal(money(300), '$3.00');
});
JS
