# An Angular-style component whose columns property is read in several places; visibleColumns must stay.
mkdir -p src/app
cat > src/app/data-table.component.ts <<'TS'
import { Component, Input } from '@angular/core';

export interface Column {
  key: string;
  label: string;
  hidden?: boolean;
}

@Component({
  selector: 'app-data-table',
  templateUrl: './data-table.component.html',
})
export class DataTableComponent {
  @Input() columns: Column[] = [];
  @Input() rows: Record<string, unknown>[] = [];

  get visibleColumns(): Column[] {
    return this.columns.filter((c) => !c.hidden);
  }

  toggle(key: string): void {
    const column = this.columns.find((c) => c.key === key);
    if (column) column.hidden = !column.hidden;
  }

  reset(): void {
    this.columns = this.columns.map((c) => ({ ...c, hidden: false }));
  }
}
TS
cat > src/app/data-table.component.html <<'HTML'
<table>
  <tr><th *ngFor="let c of visibleColumns">{{ c.label }}</th></tr>
  <tr *ngFor="let row of rows"><td *ngFor="let c of visibleColumns">{{ row[c.key] }}</td></tr>
</table>
HTML
