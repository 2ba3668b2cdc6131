import statistics
data = [2.5, 3.25, 5.0, 1.75, 4.0, 3.25]
print(statistics.mean(data), statistics.median(data), statistics.mode(data))
print(statistics.stdev(data), statistics.pvariance(data))
print(statistics.quantiles(data, n=4), statistics.fmean([1, 2, 4]))
print(statistics.median_low([1, 3, 5, 7]), statistics.geometric_mean([1, 10, 100]))
print(statistics.correlation([1, 2, 3, 4], [2, 4, 5, 9]))
try:
    statistics.mean([])
except statistics.StatisticsError as e:
    print(type(e).__name__, e)
