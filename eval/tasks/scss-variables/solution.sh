# The reference solution the tests apply (test/e2e/eval-suite.test.ts): the two colours declared once at the top, the variables used in every rule.
cat > src/app/header.component.scss <<'SCSS'
$brand-blue: #3366ff;
$text-grey: #666666;

.header {
  display: flex;
  align-items: center;
  border-bottom: 2px solid $brand-blue;
}

.header__title {
  color: $brand-blue;
  font-size: 1.5rem;
}

.header__subtitle {
  color: $text-grey;
  font-size: 0.9rem;
}

.header__link {
  color: $brand-blue;
  text-decoration: none;

  &:hover {
    color: $text-grey;
    border-bottom: 1px solid $brand-blue;
  }
}

.header__meta {
  color: $text-grey;
}
SCSS
