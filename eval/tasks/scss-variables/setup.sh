# A header stylesheet with its colours written out in every rule.
mkdir -p src/app
cat > src/app/header.component.scss <<'SCSS'
.header {
  display: flex;
  align-items: center;
  border-bottom: 2px solid #3366ff;
}

.header__title {
  color: #3366ff;
  font-size: 1.5rem;
}

.header__subtitle {
  color: #666666;
  font-size: 0.9rem;
}

.header__link {
  color: #3366ff;
  text-decoration: none;

  &:hover {
    color: #666666;
    border-bottom: 1px solid #3366ff;
  }
}

.header__meta {
  color: #666666;
}
SCSS
