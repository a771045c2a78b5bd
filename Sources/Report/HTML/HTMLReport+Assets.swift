extension HTMLReport {
    /// The page's styles.
    static let stylesheet = """
        :root{--fg:#1d2329;--mute:#667085;--line:#e3e7ec;--band:#f7f9fb;--fail:#c62828;--warn:#b26a00;--pass:#2e7d32}
        *{box-sizing:border-box}
        b,i,code,a,span,summary,td,th,li,dt,dd,bdi,text,tspan{unicode-bidi:isolate}
        p.sandbox b.gap{color:var(--warn)}
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);margin:0;padding:20px 28px 40px;background:#fff}
        h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 6px;border-bottom:1px solid var(--line);padding-bottom:4px}
        h3{font-size:15px;margin:20px 0 6px}
        .sub,.note,footer{color:var(--mute)}.note{font-size:12px}footer{margin-top:32px;font-size:12px}
        code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;word-break:break-all}
        .badge{display:inline-block;padding:1px 7px;border-radius:9px;font-size:12px;font-weight:600;color:#fff;vertical-align:middle}
        .badge.pass{background:var(--pass)}.badge.fail{background:var(--fail)}.badge.warn{background:var(--warn)}
        .ok{color:var(--pass)}
        table.data{border-collapse:collapse;width:100%;margin:6px 0;font-size:13px}
        table.data th,table.data td{border-bottom:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
        table.data thead th{background:var(--band);position:sticky;top:0}
        table.data.compact{width:auto}
        td.num{font-variant-numeric:tabular-nums;white-space:nowrap;text-align:right}
        tr.failure td{background:#fdecea}tr.warning td{background:#fff8e6}
        tr.d-denied td{background:#fff8e6}tr.d-failed td{background:#fdecea}
        .counts{color:var(--mute);font-size:12px}
        input.filter{margin:6px 0;padding:4px 8px;width:320px;border:1px solid var(--line);border-radius:4px}
        .chart{overflow-x:auto;border:1px solid var(--line);border-radius:4px;background:#fff}
        .toolbar{margin:4px 0}.toolbar button{font:12px system-ui,sans-serif;margin-right:4px;padding:2px 8px;border:1px solid var(--line);background:var(--band);border-radius:4px;cursor:pointer}
        svg:not(.widget-drawing) text{font:11px system-ui,sans-serif;fill:var(--fg)}
        svg .label{font-weight:600}svg .sublabel{font-weight:400;fill:var(--mute)}svg text.none{fill:var(--mute);font-style:italic}
        svg .axis line{stroke:#eef1f4}svg .axis text{fill:var(--mute);text-anchor:middle;font-size:10px}
        svg .band{fill:var(--band)}
        svg .proc{fill:#dfe5ec;stroke:#b5c0cc;stroke-width:1}svg .proc.relaunched{stroke:#e6550d;stroke-width:1.5}
        svg .proc.open{stroke-dasharray:4 2}
        svg .act{stroke:none;fill:#756bb1}i.sw{background:#756bb1}
        svg .act.k-placeholder{fill:#9ecae1}svg .act.k-snapshot{fill:#6baed6}svg .act.k-timeline{fill:#3182bd}
        svg .act.k-performUpdate{fill:#31a354}svg .act.k-backgroundEvents{fill:#e6550d}
        i.sw.k-placeholder{background:#9ecae1}i.sw.k-snapshot{background:#6baed6}i.sw.k-timeline{background:#3182bd}
        i.sw.k-performUpdate{background:#31a354}i.sw.k-backgroundEvents{background:#e6550d}
        svg .act.o-killed{stroke:#c62828;stroke-width:2}svg .act.o-failed{stroke:#b26a00;stroke-width:2;stroke-dasharray:3 1}
        i.sw.o-killed{background:#fff;border:2px solid #c62828}i.sw.o-failed{background:#fff;border:2px dashed #b26a00}
        svg .kill path{stroke:#c62828;stroke-width:2.2;fill:none}
        svg .kill.r-idle path,.x.r-idle{stroke:#8c96a0;color:#8c96a0}svg .kill.r-hostShutdown path,.x.r-hostShutdown{stroke:#4a5561;color:#4a5561}
        svg .kill.r-chaos path,.x.r-chaos{stroke:#c2185b;color:#c2185b}svg .kill.r-memory path,.x.r-memory{stroke:#6a1b9a;color:#6a1b9a}
        svg .kill.r-protocolViolation path,.x.r-protocolViolation{stroke:#000;color:#000}svg .kill.r-cpu path,.x.r-cpu{stroke:#795548;color:#795548}
        svg .kill.r-sessionConflict path,.x.r-sessionConflict{stroke:#00838f;color:#00838f}
        .x{color:#c62828;margin-right:3px}
        svg .relaunch circle{fill:#fff;stroke:#e6550d;stroke-width:2}.relaunch-key{color:#e6550d;margin-right:3px}
        svg .dl{fill:#fdd0a2;stroke:#e6550d;stroke-width:.8}svg .dl.res-failed{fill:#f4c7c3;stroke:#c62828}svg .dl.res-cancelled{fill:#e0e0e0;stroke:#9e9e9e}
        i.sw.dl{background:#fdd0a2;border:1px solid #e6550d}
        svg .link{fill:none;stroke:#e6550d;stroke-width:1.4;stroke-dasharray:5 3}
        svg .hl{stroke:#111 !important;stroke-width:2.5 !important}svg path.link.hl{stroke:#e6550d !important;stroke-dasharray:none}
        svg .seg rect{stroke:#fff;stroke-width:1}svg .seg.p0 rect{fill:#c6dbef}svg .seg.p1 rect{fill:#9ecae1}svg .seg text{font-size:11px}
        .legend{font-size:12px;color:var(--mute);margin:4px 0 0}.legend span{margin-right:14px;white-space:nowrap}
        i.sw{display:inline-block;width:14px;height:9px;margin-right:4px;vertical-align:middle;border-radius:2px}
        details{margin:8px 0}details summary{cursor:pointer}
        .filmstrip{margin:10px 0 14px}.filmstrip .strip-title{font-size:13px;margin-bottom:4px}
        .filmstrip .frames{display:flex;gap:14px;overflow-x:auto;padding:6px;background:#eef1f4;border-radius:6px}
        .filmstrip figure.frame{margin:0;display:flex;flex-direction:column;align-items:flex-start;gap:4px;cursor:help}
        .filmstrip figure.frame svg{display:inline-block;margin-right:6px;vertical-align:top}
        .filmstrip figure.frame:hover{outline:2px solid #3182bd;outline-offset:3px;border-radius:4px}
        .filmstrip figcaption{font-size:11px;color:var(--mute)}
            ol.entries{margin:0;padding-left:18px}ol.entries .when{color:var(--mute);font-size:12px}ol.entries .text{font-weight:600}
        """

    /// Runs first: records any later script error on the document (`data-script-errors`), where
    /// a test that dumps the DOM finds it.
    static let errorCatcher = """
        window.addEventListener('error',function(e){var r=document.documentElement;var p=r.getAttribute('data-script-errors');\
        r.setAttribute('data-script-errors',(p?p+' | ':'')+(e.message||'error')+(e.lineno?' (line '+e.lineno+')':''));});
        """

    /// Zoom of the time axis (the buttons, or `#zoom=N` in the address), highlight of a relaunch
    /// with its download, table filters. Marks the page `data-report-ready="yes"` when it ran to
    /// the end.
    static let script = """
        (function(){
        'use strict';
        var LABEL=\(TimeAxis.labelWidth),PLOT=\(TimeAxis.plotWidth),RIGHT=\(TimeAxis.rightMargin);
        function place(svg,zoom){
          var d=Math.max(1,+svg.getAttribute('data-duration')),w=PLOT*zoom;
          function X(t){t=Math.max(0,Math.min(+t,d));return LABEL+t/d*w;}
          svg.setAttribute('width',LABEL+w+RIGHT);
          svg.querySelectorAll('rect.band').forEach(function(r){r.setAttribute('width',LABEL+w+RIGHT);});
          svg.querySelectorAll('[data-t0]').forEach(function(el){
            var t0=+el.getAttribute('data-t0'),t1=+el.getAttribute('data-t1');
            if(el.tagName.toLowerCase()==='path'){
              var x0=X(t0),y0=+el.getAttribute('data-y0'),x1=X(t1),y1=+el.getAttribute('data-y1'),b=Math.max(12,Math.abs(y1-y0)/2);
              el.setAttribute('d','M'+x0+','+y0+'C'+(x0+b)+','+y0+' '+(x1-b)+','+y1+' '+x1+','+y1);return;
            }
            var min=el.classList.contains('seg')?1:1.5;
            el.setAttribute('x',X(t0));el.setAttribute('width',Math.max(min,X(t1)-X(t0)));
          });
          svg.querySelectorAll('g[data-t]').forEach(function(g){g.setAttribute('transform','translate('+X(g.getAttribute('data-t'))+','+g.getAttribute('data-y')+')');});
          svg.querySelectorAll('line[data-t]').forEach(function(l){var x=X(l.getAttribute('data-t'));l.setAttribute('x1',x);l.setAttribute('x2',x);});
          svg.querySelectorAll('text[data-t]').forEach(function(t){t.setAttribute('x',X(t.getAttribute('data-t')));});
        }
        var asked=/(?:^#|&)zoom=(\\d+)/.exec(location.hash),initial=asked?Math.min(512,Math.max(1,+asked[1])):1;
        document.querySelectorAll('section.run').forEach(function(section){
          var charts=section.querySelectorAll('svg.timeaxis');
          if(!charts.length)return;
          var zoom=initial,bar=document.createElement('div');bar.className='toolbar';
          if(zoom!==1)charts.forEach(function(c){place(c,zoom);});
          [['zoom out',0.5],['zoom in',2],['fit',0]].forEach(function(b){
            var button=document.createElement('button');button.type='button';button.textContent=b[0];
            button.addEventListener('click',function(){zoom=b[1]===0?1:Math.min(512,Math.max(1,zoom*b[1]));charts.forEach(function(c){place(c,zoom);});});
            bar.appendChild(button);
          });
          var first=section.querySelector('.chart');first.parentNode.insertBefore(bar,first);
        });
        function related(el){
          var tokens=(el.getAttribute('data-rel')||'').split(' ').filter(Boolean),found=[];
          tokens.forEach(function(t){document.querySelectorAll('[data-rel~="'+t+'"]').forEach(function(x){found.push(x);});});
          return found;
        }
        document.querySelectorAll('[data-rel]').forEach(function(el){
          el.addEventListener('mouseenter',function(){related(el).forEach(function(x){x.classList.add('hl');});});
          el.addEventListener('mouseleave',function(){related(el).forEach(function(x){x.classList.remove('hl');});});
        });
        document.querySelectorAll('input.filter').forEach(function(input){
          var table=document.getElementById(input.getAttribute('data-table'));
          if(!table)return;
          input.addEventListener('input',function(){
            var q=input.value.toLowerCase();
            table.querySelectorAll('tbody tr').forEach(function(row){row.style.display=!q||row.textContent.toLowerCase().indexOf(q)>=0?'':'none';});
          });
        });
        var status=document.getElementById('report-status');
        if(status)status.textContent=document.querySelectorAll('section.run').length+' run(s) · hover a bar or mark for its details · zoom with the buttons above each chart';
        document.body.setAttribute('data-report-ready','yes');
        })();
        """
}
