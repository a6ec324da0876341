set terminal pngcairo size 1400,600 noenhanced
set output '/tmp/gpu-results/ipt-bench.png'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set ylabel 'speedup over the CPU backend (overall time, log scale)'
set title 'OpenIPT: speedup per operator and implementation, largest size, data on the host'
set xtics rotate by -40
set key outside right top
set grid ytics
plot for [c=2:6] '/tmp/gpu-results/ipt-bench.png.dat' using c:xtic(1) title columnhead
