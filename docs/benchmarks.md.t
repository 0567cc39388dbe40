10 | **0.71** | 0.72 (1.0x) | 0.70 (1.0x) | 3.12 (4.4x)
10 | **0.75** | 0.75 (1.0x) | 0.75 (1.0x) | 3.17 (4.2x)
10 | **0.86** | 0.73 (0.9x) | 6.70 (7.8x) | 1.61 (1.9x)
10 | **0.93** | 0.74 (0.8x) | 6.43 (6.9x) | 1.49 (1.6x)
10 | **1.19** | 1.20 (1.0x) | 1.18 (1.0x) | 3.13 (2.6x)
10 | **1.21** | 1.09 (0.9x) | 6.66 (5.5x) | 1.96 (1.6x)
10 | **1.95** | 1.95 (1.0x) | 1.97 (1.0x) | 14.0 (7.2x)
10 | **2.02** | 2.01 (1.0x) | 2.00 (1.0x) | 13.7 (6.8x)
10 | **2.07** | 1.97 (1.0x) | 15.3 (7.4x) | 5.09 (2.5x)
10 | **2.08** | 2.01 (1.0x) | 18.2 (8.7x) | 5.86 (2.8x)
10 | **2.83** | 2.77 (1.0x) | 20.0 (7.1x) | 7.93 (2.8x)
10 | **2.94** | 2.93 (1.0x) | 2.96 (1.0x) | 13.9 (4.7x)
10 | **3.81** | 3.86 (1.0x) | 3.84 (1.0x) | 67.7 (17.8x)
10 | **3.89** | 3.90 (1.0x) | 3.88 (1.0x) | 67.3 (17.3x)
10 | **5.02** | 5.67 (1.1x) | 5.02 (1.0x) | 55.9 (11.1x)
100 | **12.8** | 11.9 (0.9x) | 128 (10.0x) | 20.5 (1.6x)
100 | **13.6** | 13.4 (1.0x) | 13.5 (1.0x) | 957 (70.4x)
100 | **134** | 306 (2.3x) | 135 (1.0x) | 6743 (50.2x)
100 | **20.1** | 20.5 (1.0x) | 20.8 (1.0x) | 6807 (339.2x)
100 | **20.9** | 20.8 (1.0x) | 21.0 (1.0x) | 6657 (318.7x)
100 | **21.9** | 21.7 (1.0x) | 239 (10.9x) | 61.1 (2.8x)
100 | **22.0** | 20.3 (0.9x) | 201 (9.2x) | 53.3 (2.4x)
100 | **31.3** | 30.7 (1.0x) | 276 (8.8x) | 87.9 (2.8x)
100 | **32.6** | 32.4 (1.0x) | 32.4 (1.0x) | 6800 (208.5x)
100 | **35.4** | 34.2 (1.0x) | 253 (7.2x) | 55.2 (1.6x)
100 | **39.6** | 39.0 (1.0x) | 39.4 (1.0x) | 41755 (1055.7x)
100 | **39.7** | 39.7 (1.0x) | 39.4 (1.0x) | 40307 (1015.4x)
100 | **47.7** | 106 (2.2x) | 47.7 (1.0x) | 948 (19.9x)
100 | **55.6** | 68.2 (1.2x) | 55.7 (1.0x) | 42293 (760.7x)
100 | **7.47** | 7.46 (1.0x) | 7.33 (1.0x) | 967 (129.5x)
100 | **7.58** | 7.56 (1.0x) | 7.48 (1.0x) | 945 (124.6x)
100 | **8.52** | 7.77 (0.9x) | 159 (18.7x) | 15.5 (1.8x)
100 | **9.28** | 7.43 (0.8x) | 124 (13.4x) | 14.1 (1.5x)
100 | **99.8** | 99.5 (1.0x) | 467 (4.7x) | 341 (3.4x)
1000 | **132** | 120 (0.9x) | 801 (6.1x) | 209 (1.6x)
1000 | **144** | 143 (1.0x) | 142 (1.0x) | 777551 (5406.1x)
1000 | **16618** | 15901 (1.0x) | 46902 (2.8x) | 150836 (9.1x)
1000 | **2019** | 2011 (1.0x) | 2233 (1.1x) | 796 (0.4x)
1000 | **220** | 223 (1.0x) | 220 (1.0x) | -
1000 | **231** | 232 (1.0x) | 229 (1.0x) | -
1000 | **236** | 231 (1.0x) | 2093 (8.9x) | 659 (2.8x)
1000 | **237** | 220 (0.9x) | 1689 (7.1x) | 550 (2.3x)
1000 | **2841** | 10749 (3.8x) | 3251 (1.1x) | 29233 (10.3x)
1000 | **28907** | 110324 (3.8x) | 30544 (1.1x) | -
1000 | **337** | 325 (1.0x) | 2326 (6.9x) | 883 (2.6x)
1000 | **35.1** | 34.3 (1.0x) | 238 (6.8x) | 20.1 (0.6x)
1000 | **353** | 350 (1.0x) | 349 (1.0x) | -
1000 | **37.9** | 38.1 (1.0x) | 38.2 (1.0x) | 30404 (802.0x)
1000 | **3820** | 3824 (1.0x) | 14570 (3.8x) | 19381 (5.1x)
1000 | **419** | 421 (1.0x) | 418 (1.0x) | -
1000 | **42.6** | 41.7 (1.0x) | 501 (11.8x) | 18.4 (0.4x)
1000 | **42.9** | 43.0 (1.0x) | 41.9 (1.0x) | 30987 (722.8x)
1000 | **440** | 435 (1.0x) | 462 (1.0x) | -
1000 | **616** | 746 (1.2x) | 601 (1.0x) | -
1000 | **66.1** | 66.1 (1.0x) | 246 (3.7x) | 25.1 (0.4x)
1000 | **6765** | 20095 (3.0x) | 6697 (1.0x) | 777775 (115.0x)
1000 | **70.5** | 70.3 (1.0x) | 71.5 (1.0x) | 30901 (438.4x)
1000 | **75.2** | 75.0 (1.0x) | 75.5 (1.0x) | 774741 (10301.6x)
1000 | **80.0** | 79.5 (1.0x) | 77.3 (1.0x) | 776925 (9710.7x)
1000 | **86.4** | 79.3 (0.9x) | 1110 (12.8x) | 160 (1.8x)
1000 | **94.1** | 75.5 (0.8x) | 759 (8.1x) | 131 (1.4x)
10000 | **12702** | 14913 (1.2x) | 11207 (0.9x) | -
10000 | **1396** | 1282 (0.9x) | 7767 (5.6x) | 2102 (1.5x)
10000 | **1452** | 1459 (1.0x) | 1468 (1.0x) | -
10000 | **2425** | 2343 (1.0x) | 2390 (1.0x) | -
10000 | **2468** | 2315 (0.9x) | 22002 (8.9x) | 5418 (2.2x)
10000 | **2782** | 2790 (1.0x) | 2813 (1.0x) | -
10000 | **3252** | 3220 (1.0x) | 26253 (8.1x) | 9170 (2.8x)
10000 | **368** | 356 (1.0x) | 1921 (5.2x) | 202 (0.5x)
10000 | **373** | 381 (1.0x) | 374 (1.0x) | -
10000 | **4239** | 4111 (1.0x) | 29887 (7.1x) | 9711 (2.3x)
10000 | **471** | 472 (1.0x) | 464 (1.0x) | -
10000 | **473** | 463 (1.0x) | 4798 (10.1x) | 302 (0.6x)
10000 | **4805** | 4971 (1.0x) | 4876 (1.0x) | -
10000 | **4939** | 5147 (1.0x) | 5403 (1.1x) | -
10000 | **675** | 662 (1.0x) | 1919 (2.8x) | 255 (0.4x)
10000 | **6848** | 6708 (1.0x) | 7936 (1.2x) | -
10000 | **787** | 776 (1.0x) | 784 (1.0x) | -
10000 | **820** | 811 (1.0x) | 825 (1.0x) | -
10000 | **910** | 899 (1.0x) | 893 (1.0x) | -
10000 | **973** | 812 (0.8x) | 7064 (7.3x) | 1374 (1.4x)
10000 | **981** | 906 (0.9x) | 11350 (11.6x) | 1900 (1.9x)
1024 | **1250** | 4349 (3.5x) | 1256 (1.0x) | -
1024 | **2777** | 2669 (1.0x) | 18061 (6.5x) | 18268 (6.6x)
1024 | **4162** | 19578 (4.7x) | 4657 (1.1x) | -
1024 | **590** | 570 (1.0x) | 674 (1.1x) | 122 (0.2x)
1024 | **823** | 4809 (5.8x) | 813 (1.0x) | 47313 (57.5x)
1024 | **889** | 873 (1.0x) | 5225 (5.9x) | 2580 (2.9x)
125 | **137** | 608 (4.4x) | 140 (1.0x) | 1832 (13.3x)
125 | **267** | 268 (1.0x) | 2438 (9.1x) | 1503 (5.6x)
125 | **411** | 1274 (3.1x) | 416 (1.0x) | 13281 (32.3x)
125 | **90.1** | 88.4 (1.0x) | 783 (8.7x) | 211 (2.3x)
216 | **1343** | 3499 (2.6x) | 1318 (1.0x) | 66756 (49.7x)
216 | **255** | 250 (1.0x) | 1522 (6.0x) | 766 (3.0x)
216 | **390** | 916 (2.3x) | 398 (1.0x) | 9139 (23.4x)
216 | **812** | 806 (1.0x) | 5688 (7.0x) | 5457 (6.7x)
25 | **11.6** | 11.5 (1.0x) | 128 (11.0x) | 37.7 (3.2x)
25 | **13.2** | 19.8 (1.5x) | 13.6 (1.0x) | 147 (11.1x)
25 | **4.51** | 4.41 (1.0x) | 19.9 (4.4x) | 7.22 (1.6x)
25 | **5.21** | 7.73 (1.5x) | 5.23 (1.0x) | 25.7 (4.9x)
27 | **20.7** | 20.7 (1.0x) | 188 (9.1x) | 75.8 (3.7x)
27 | **27.1** | 55.2 (2.0x) | 27.2 (1.0x) | 181 (6.7x)
27 | **7.17** | 6.94 (1.0x) | 93.4 (13.0x) | 12.7 (1.8x)
27 | **9.28** | 18.0 (1.9x) | 9.28 (1.0x) | 30.7 (3.3x)
400 | **242** | 232 (1.0x) | 1211 (5.0x) | 498 (2.1x)
400 | **352** | 1599 (4.5x) | 350 (1.0x) | 52374 (148.9x)
400 | **694** | 702 (1.0x) | 4925 (7.1x) | 3459 (5.0x)
400 | **989** | 3214 (3.2x) | 999 (1.0x) | 407407 (411.8x)
512 | **1078** | 1084 (1.0x) | 5169 (4.8x) | 4902 (4.5x)
512 | **1712** | 4777 (2.8x) | 1841 (1.1x) | 155837 (91.0x)
512 | **3694** | 3776 (1.0x) | 17483 (4.7x) | 36395 (9.9x)
512 | **6449** | 23256 (3.6x) | 7052 (1.1x) | -
64 | **122** | 318 (2.6x) | 131 (1.1x) | 2230 (18.3x)
64 | **29.4** | 28.9 (1.0x) | 203 (6.9x) | 61.9 (2.1x)
64 | **42.6** | 124 (2.9x) | 46.0 (1.1x) | 294 (6.9x)
64 | **82.9** | 82.7 (1.0x) | 695 (8.4x) | 404 (4.9x)
8 | **1.14** | 1.09 (0.9x) | 10.0 (8.7x) | 2.07 (1.8x)
8 | **1.23** | 1.43 (1.2x) | 1.22 (1.0x) | 1.96 (1.6x)
8 | **2.79** | 2.78 (1.0x) | 14.7 (5.3x) | 9.38 (3.4x)
8 | **3.19** | 3.76 (1.2x) | 3.18 (1.0x) | 8.25 (2.6x)
9 | **1.14** | 1.05 (0.9x) | 11.9 (10.4x) | 1.99 (1.7x)
9 | **1.16** | 1.35 (1.2x) | 1.16 (1.0x) | 2.67 (2.3x)
9 | **2.75** | 2.71 (1.0x) | 16.5 (6.0x) | 8.90 (3.2x)
9 | **2.95** | 3.42 (1.2x) | 2.95 (1.0x) | 11.1 (3.8x)
cholmod-simplicial / graphsolve-llt/ldlt | chain | 100 | 2.62 | **no**
cholmod-simplicial / graphsolve-llt/ldlt | chain | 1000 | 2.48 | **no**
cholmod-simplicial / graphsolve-llt/ldlt | chain | 10000 | 3.86 | yes
cholmod-simplicial / graphsolve-llt/ldlt | chain-b3 | 100 | 1.88 | **no**
cholmod-simplicial / graphsolve-llt/ldlt | chain-b3 | 1000 | 1.82 | **no**
cholmod-simplicial / graphsolve-llt/ldlt | chain-b3 | 10000 | 1.77 | **no**
cholmod-simplicial / graphsolve-llt/ldlt | ladder | 100 | 3.41 | yes
cholmod-simplicial / graphsolve-llt/ldlt | ladder | 1000 | 3.36 | yes
cholmod-simplicial / graphsolve-llt/ldlt | ladder | 10000 | 4.10 | yes
cholmod-simplicial / graphsolve-llt/ldlt | ladder-b3 | 100 | 1.79 | **no**
cholmod-simplicial / graphsolve-llt/ldlt | ladder-b3 | 1000 | 1.78 | **no**
cholmod-simplicial / graphsolve-llt/ldlt | ladder-b3 | 10000 | 1.68 | **no**
cholmod-simplicial / graphsolve-llt/ldlt | tree | 100 | 2.70 | **no**
cholmod-simplicial / graphsolve-llt/ldlt | tree | 1000 | 2.65 | **no**
cholmod-simplicial / graphsolve-llt/ldlt | tree | 10000 | 2.96 | **no**
cholmod-simplicial / graphsolve-llt/ldlt | tree-b3 | 100 | 1.89 | **no**
cholmod-simplicial / graphsolve-llt/ldlt | tree-b3 | 1000 | 1.98 | **no**
cholmod-simplicial / graphsolve-llt/ldlt | tree-b3 | 10000 | 2.12 | **no**
cholmod-supernodal / graphsolve-llt/ldlt | chain | 100 | 9.89 | yes
cholmod-supernodal / graphsolve-llt/ldlt | chain | 1000 | 7.67 | yes
cholmod-supernodal / graphsolve-llt/ldlt | chain | 10000 | 9.50 | yes
cholmod-supernodal / graphsolve-llt/ldlt | chain-b3 | 100 | 16.75 | yes
cholmod-supernodal / graphsolve-llt/ldlt | chain-b3 | 1000 | 10.05 | yes
cholmod-supernodal / graphsolve-llt/ldlt | chain-b3 | 10000 | 8.70 | yes
cholmod-supernodal / graphsolve-llt/ldlt | ladder | 100 | 8.99 | yes
cholmod-supernodal / graphsolve-llt/ldlt | ladder | 1000 | 7.17 | yes
cholmod-supernodal / graphsolve-llt/ldlt | ladder | 10000 | 7.27 | yes
cholmod-supernodal / graphsolve-llt/ldlt | ladder-b3 | 100 | 10.80 | yes
cholmod-supernodal / graphsolve-llt/ldlt | ladder-b3 | 1000 | 6.68 | yes
cholmod-supernodal / graphsolve-llt/ldlt | ladder-b3 | 10000 | 6.06 | yes
cholmod-supernodal / graphsolve-llt/ldlt | tree | 100 | 11.03 | yes
cholmod-supernodal / graphsolve-llt/ldlt | tree | 1000 | 9.06 | yes
cholmod-supernodal / graphsolve-llt/ldlt | tree | 10000 | 8.15 | yes
cholmod-supernodal / graphsolve-llt/ldlt | tree-b3 | 100 | 20.49 | yes
cholmod-supernodal / graphsolve-llt/ldlt | tree-b3 | 1000 | 14.01 | yes
cholmod-supernodal / graphsolve-llt/ldlt | tree-b3 | 10000 | 12.52 | yes
dense-lu / graphsolve-ldu | chain | 100 | 339.18 | yes
dense-lu / graphsolve-ldu | chain-b3 | 100 | 124.62 | yes
dense-lu / graphsolve-ldu | chain-saddle | 100 | 1015.39 | yes
dense-lu / graphsolve-ldu | ladder | 100 | 208.49 | yes
dense-lu / graphsolve-ldu | ladder-b3 | 100 | 70.42 | **no**
dense-lu / graphsolve-ldu | ladder-saddle | 100 | 760.71 | yes
eigen-simplicialldlt / graphsolve-llt/ldlt | chain | 100 | 2.62 | **no**
eigen-simplicialldlt / graphsolve-llt/ldlt | chain | 1000 | 2.50 | **no**
eigen-simplicialldlt / graphsolve-llt/ldlt | chain | 10000 | 2.34 | **no**
eigen-simplicialldlt / graphsolve-llt/ldlt | chain-b3 | 100 | 1.89 | **no**
eigen-simplicialldlt / graphsolve-llt/ldlt | chain-b3 | 1000 | 1.73 | **no**
eigen-simplicialldlt / graphsolve-llt/ldlt | chain-b3 | 10000 | 1.69 | **no**
eigen-simplicialldlt / graphsolve-llt/ldlt | ladder | 100 | 2.86 | **no**
eigen-simplicialldlt / graphsolve-llt/ldlt | ladder | 1000 | 2.72 | **no**
eigen-simplicialldlt / graphsolve-llt/ldlt | ladder | 10000 | 2.36 | **no**
eigen-simplicialldlt / graphsolve-llt/ldlt | ladder-b3 | 100 | 1.72 | **no**
eigen-simplicialldlt / graphsolve-llt/ldlt | ladder-b3 | 1000 | 1.74 | **no**
eigen-simplicialldlt / graphsolve-llt/ldlt | ladder-b3 | 10000 | 1.64 | **no**
eigen-simplicialldlt / graphsolve-llt/ldlt | tree | 100 | 2.82 | **no**
eigen-simplicialldlt / graphsolve-llt/ldlt | tree | 1000 | 2.85 | **no**
eigen-simplicialldlt / graphsolve-llt/ldlt | tree | 10000 | 2.85 | **no**
eigen-simplicialldlt / graphsolve-llt/ldlt | tree-b3 | 100 | 2.00 | **no**
eigen-simplicialldlt / graphsolve-llt/ldlt | tree-b3 | 1000 | 2.02 | **no**
eigen-simplicialldlt / graphsolve-llt/ldlt | tree-b3 | 10000 | 2.10 | **no**
factor nonzeros / best of umfpack, klu | crystal | 1000 | 1.00 | yes
factor nonzeros / best of umfpack, klu | crystal | 125 | 1.00 | yes
factor nonzeros / best of umfpack, klu | crystal | 216 | 0.96 | yes
factor nonzeros / best of umfpack, klu | crystal | 27 | 0.98 | yes
factor nonzeros / best of umfpack, klu | crystal | 512 | 0.97 | yes
factor nonzeros / best of umfpack, klu | crystal | 64 | 0.97 | yes
factor nonzeros / best of umfpack, klu | crystal | 8 | 0.97 | yes
factor nonzeros / best of umfpack, klu | crystal-b3 | 1000 | 0.99 | yes
factor nonzeros / best of umfpack, klu | crystal-b3 | 125 | 0.99 | yes
factor nonzeros / best of umfpack, klu | crystal-b3 | 216 | 0.99 | yes
factor nonzeros / best of umfpack, klu | crystal-b3 | 27 | 0.97 | yes
factor nonzeros / best of umfpack, klu | crystal-b3 | 512 | 0.97 | yes
factor nonzeros / best of umfpack, klu | crystal-b3 | 64 | 0.96 | yes
factor nonzeros / best of umfpack, klu | crystal-b3 | 8 | 0.94 | yes
factor nonzeros / best of umfpack, klu | net | 100 | 0.99 | yes
factor nonzeros / best of umfpack, klu | net | 1024 | 0.99 | yes
factor nonzeros / best of umfpack, klu | net | 25 | 0.98 | yes
factor nonzeros / best of umfpack, klu | net | 400 | 0.99 | yes
factor nonzeros / best of umfpack, klu | net | 9 | 0.97 | yes
factor nonzeros / best of umfpack, klu | net-b3 | 100 | 0.97 | yes
factor nonzeros / best of umfpack, klu | net-b3 | 1024 | 0.99 | yes
factor nonzeros / best of umfpack, klu | net-b3 | 25 | 0.96 | yes
factor nonzeros / best of umfpack, klu | net-b3 | 400 | 0.98 | yes
factor nonzeros / best of umfpack, klu | net-b3 | 9 | 0.93 | yes
fastest of klu, sparselu / graphsolve-ldu | crystal | 1000 | 6.18 | yes
fastest of klu, sparselu / graphsolve-ldu | crystal | 125 | 5.39 | yes
fastest of klu, sparselu / graphsolve-ldu | crystal | 216 | 5.38 | yes
fastest of klu, sparselu / graphsolve-ldu | crystal | 27 | 3.76 | yes
fastest of klu, sparselu / graphsolve-ldu | crystal | 512 | 5.58 | yes
fastest of klu, sparselu / graphsolve-ldu | crystal | 64 | 5.01 | yes
fastest of klu, sparselu / graphsolve-ldu | crystal | 8 | 3.37 | yes
fastest of klu, sparselu / graphsolve-ldu | crystal-b3 | 1000 | 3.90 | yes
fastest of klu, sparselu / graphsolve-ldu | crystal-b3 | 125 | 2.27 | yes
fastest of klu, sparselu / graphsolve-ldu | crystal-b3 | 216 | 3.07 | yes
fastest of klu, sparselu / graphsolve-ldu | crystal-b3 | 27 | 1.56 | yes
fastest of klu, sparselu / graphsolve-ldu | crystal-b3 | 512 | 3.92 | yes
fastest of klu, sparselu / graphsolve-ldu | crystal-b3 | 64 | 1.97 | yes
fastest of klu, sparselu / graphsolve-ldu | crystal-b3 | 8 | 1.57 | yes
fastest of klu, sparselu / graphsolve-ldu | net | 100 | 4.20 | yes
fastest of klu, sparselu / graphsolve-ldu | net | 1024 | 7.22 | yes
fastest of klu, sparselu / graphsolve-ldu | net | 25 | 3.82 | yes
fastest of klu, sparselu / graphsolve-ldu | net | 400 | 6.11 | yes
fastest of klu, sparselu / graphsolve-ldu | net | 9 | 3.25 | yes
fastest of klu, sparselu / graphsolve-ldu | net-b3 | 100 | 1.60 | yes
fastest of klu, sparselu / graphsolve-ldu | net-b3 | 1024 | 3.01 | yes
fastest of klu, sparselu / graphsolve-ldu | net-b3 | 25 | 1.55 | yes
fastest of klu, sparselu / graphsolve-ldu | net-b3 | 400 | 2.15 | yes
fastest of klu, sparselu / graphsolve-ldu | net-b3 | 9 | 1.54 | yes
fastest symmetric peer / graphsolve-llt/ldlt | crystal | 1000 | 2.95 | yes
fastest symmetric peer / graphsolve-llt/ldlt | crystal | 125 | 5.37 | yes
fastest symmetric peer / graphsolve-llt/ldlt | crystal | 216 | 6.49 | yes
fastest symmetric peer / graphsolve-llt/ldlt | crystal | 27 | 3.66 | yes
fastest symmetric peer / graphsolve-llt/ldlt | crystal | 512 | 4.73 | yes
fastest symmetric peer / graphsolve-llt/ldlt | crystal | 64 | 4.89 | yes
fastest symmetric peer / graphsolve-llt/ldlt | crystal | 8 | 3.38 | yes
fastest symmetric peer / graphsolve-llt/ldlt | crystal-b3 | 1000 | 3.81 | yes
fastest symmetric peer / graphsolve-llt/ldlt | crystal-b3 | 125 | 2.39 | yes
fastest symmetric peer / graphsolve-llt/ldlt | crystal-b3 | 216 | 3.02 | yes
fastest symmetric peer / graphsolve-llt/ldlt | crystal-b3 | 27 | 1.83 | yes
fastest symmetric peer / graphsolve-llt/ldlt | crystal-b3 | 512 | 3.92 | yes
fastest symmetric peer / graphsolve-llt/ldlt | crystal-b3 | 64 | 2.14 | yes
fastest symmetric peer / graphsolve-llt/ldlt | crystal-b3 | 8 | 1.90 | yes
fastest symmetric peer / graphsolve-llt/ldlt | net | 100 | 3.43 | yes
fastest symmetric peer / graphsolve-llt/ldlt | net | 1024 | 6.30 | yes
fastest symmetric peer / graphsolve-llt/ldlt | net | 25 | 3.28 | yes
fastest symmetric peer / graphsolve-llt/ldlt | net | 400 | 4.98 | yes
fastest symmetric peer / graphsolve-llt/ldlt | net | 9 | 3.28 | yes
fastest symmetric peer / graphsolve-llt/ldlt | net-b3 | 100 | 1.62 | yes
fastest symmetric peer / graphsolve-llt/ldlt | net-b3 | 1024 | 2.89 | yes
fastest symmetric peer / graphsolve-llt/ldlt | net-b3 | 25 | 1.64 | yes
fastest symmetric peer / graphsolve-llt/ldlt | net-b3 | 400 | 2.15 | yes
fastest symmetric peer / graphsolve-llt/ldlt | net-b3 | 9 | 1.90 | yes
klu / graphsolve-ldu | chain | 100 | 2.72 | **no**
klu / graphsolve-ldu | chain | 1000 | 4.50 | **no**
klu / graphsolve-ldu | chain | 10000 | 5.60 | yes
klu / graphsolve-ldu | chain-b3 | 100 | 1.87 | **no**
klu / graphsolve-ldu | chain-b3 | 1000 | 1.93 | **no**
klu / graphsolve-ldu | chain-b3 | 10000 | 3.09 | **no**
klu / graphsolve-ldu | chain-saddle | 100 | 2.34 | **no**
klu / graphsolve-ldu | chain-saddle | 1000 | 3.84 | **no**
klu / graphsolve-ldu | chain-saddle | 10000 | 3.61 | **no**
klu / graphsolve-ldu | ladder | 100 | 3.31 | **no**
klu / graphsolve-ldu | ladder | 1000 | 4.86 | **no**
klu / graphsolve-ldu | ladder | 10000 | 4.42 | **no**
klu / graphsolve-ldu | ladder-b3 | 100 | 1.55 | **no**
klu / graphsolve-ldu | ladder-b3 | 1000 | 2.04 | **no**
klu / graphsolve-ldu | ladder-b3 | 10000 | 2.54 | **no**
klu / graphsolve-ldu | ladder-saddle | 100 | 2.16 | **no**
klu / graphsolve-ldu | ladder-saddle | 1000 | 3.00 | **no**
klu / graphsolve-ldu | ladder-saddle | 10000 | 1.71 | **no**
klu / graphsolve-ldu | tree | 100 | 2.61 | **no**
klu / graphsolve-ldu | tree | 1000 | 4.36 | **no**
klu / graphsolve-ldu | tree | 10000 | 4.74 | **no**
klu / graphsolve-ldu | tree-b3 | 100 | 1.74 | **no**
klu / graphsolve-ldu | tree-b3 | 1000 | 1.83 | **no**
klu / graphsolve-ldu | tree-b3 | 10000 | 2.97 | **no**
klu / graphsolve-ldu | tree-saddle | 100 | 2.63 | **no**
klu / graphsolve-ldu | tree-saddle | 1000 | 4.13 | **no**
klu / graphsolve-ldu | tree-saddle | 10000 | 4.14 | **no**
log-log slope n=1000..10000 | chain | 10000 | 1.04 | yes
log-log slope n=1000..10000 | chain-b3 | 10000 | 1.04 | yes
log-log slope n=1000..10000 | chain-saddle | 10000 | 1.07 | **no**
log-log slope n=1000..10000 | ladder | 10000 | 1.13 | **no**
log-log slope n=1000..10000 | ladder-b3 | 10000 | 1.00 | yes
log-log slope n=1000..10000 | ladder-saddle | 10000 | 1.31 | **no**
log-log slope n=1000..10000 | tree | 10000 | 1.08 | **no**
log-log slope n=1000..10000 | tree-b3 | 10000 | 1.06 | **no**
log-log slope n=1000..10000 | tree-saddle | 10000 | 1.19 | **no**
n | graphsolve-ldu-auto | graphsolve-ldu-dfs | graphsolve-ldu-amd | dense-lu
n | graphsolve-ldu-auto | graphsolve-ldu-dfs | graphsolve-ldu-amd | dense-lu
n | graphsolve-ldu-auto | graphsolve-ldu-dfs | graphsolve-ldu-amd | dense-lu
n | graphsolve-ldu-auto | graphsolve-ldu-dfs | graphsolve-ldu-amd | dense-lu
n | graphsolve-ldu-auto | graphsolve-ldu-dfs | graphsolve-ldu-amd | dense-lu
n | graphsolve-ldu-auto | graphsolve-ldu-dfs | graphsolve-ldu-amd | dense-lu
n | graphsolve-ldu-auto | graphsolve-ldu-dfs | graphsolve-ldu-amd | dense-lu
n | graphsolve-ldu-auto | graphsolve-ldu-dfs | graphsolve-ldu-amd | dense-lu
n | graphsolve-ldu-auto | graphsolve-ldu-dfs | graphsolve-ldu-amd | dense-lu
n | graphsolve-ldu-auto | graphsolve-ldu-dfs | graphsolve-ldu-amd | dense-lu
n | graphsolve-ldu-auto | graphsolve-ldu-dfs | graphsolve-ldu-amd | dense-lu
n | graphsolve-ldu-auto | graphsolve-ldu-dfs | graphsolve-ldu-amd | dense-lu
n | graphsolve-ldu-auto | graphsolve-ldu-dfs | graphsolve-ldu-amd | dense-lu
n | graphsolve-ldu-auto | graphsolve-ldu-dfs | graphsolve-ldu-amd | dense-lu
n | graphsolve-ldu-auto | graphsolve-ldu-dfs | graphsolve-ldu-amd | dense-lu
n | graphsolve-ldu-auto | graphsolve-ldu-dfs | graphsolve-ldu-amd | dense-lu
n | graphsolve-ldu-auto | graphsolve-ldu-dfs | graphsolve-ldu-amd | dense-lu
n | graphsolve-ldu-auto | graphsolve-ldu-dfs | graphsolve-ldu-amd | dense-lu
n | graphsolve-llt | graphsolve-ldlt | cholmod-supernodal | eigen-simplicialldlt
n | graphsolve-llt | graphsolve-ldlt | cholmod-supernodal | eigen-simplicialldlt
n | graphsolve-llt | graphsolve-ldlt | cholmod-supernodal | eigen-simplicialldlt
n | graphsolve-llt | graphsolve-ldlt | cholmod-supernodal | eigen-simplicialldlt
n | graphsolve-llt | graphsolve-ldlt | cholmod-supernodal | eigen-simplicialldlt
n | graphsolve-llt | graphsolve-ldlt | cholmod-supernodal | eigen-simplicialldlt
n | graphsolve-llt | graphsolve-ldlt | cholmod-supernodal | eigen-simplicialldlt
n | graphsolve-llt | graphsolve-ldlt | cholmod-supernodal | eigen-simplicialldlt
n | graphsolve-llt | graphsolve-ldlt | cholmod-supernodal | eigen-simplicialldlt
n | graphsolve-llt | graphsolve-ldlt | cholmod-supernodal | eigen-simplicialldlt
n | graphsolve-llt | graphsolve-ldlt | cholmod-supernodal | eigen-simplicialldlt
n | graphsolve-llt | graphsolve-ldlt | cholmod-supernodal | eigen-simplicialldlt
n | graphsolve-llt | graphsolve-ldlt | cholmod-supernodal | eigen-simplicialldlt
n | graphsolve-llt | graphsolve-ldlt | cholmod-supernodal | eigen-simplicialldlt
n | graphsolve-llt | graphsolve-ldlt | cholmod-supernodal | eigen-simplicialldlt
umfpack / graphsolve-ldu | chain | 100 | 15.63 | **no**
umfpack / graphsolve-ldu | chain | 1000 | 29.59 | yes
umfpack / graphsolve-ldu | chain | 10000 | 32.19 | yes
umfpack / graphsolve-ldu | chain-b3 | 100 | 16.09 | **no**
umfpack / graphsolve-ldu | chain-b3 | 1000 | 22.11 | yes
umfpack / graphsolve-ldu | chain-b3 | 10000 | 21.63 | yes
umfpack / graphsolve-ldu | chain-saddle | 100 | 26.78 | yes
umfpack / graphsolve-ldu | chain-saddle | 1000 | 29.24 | yes
umfpack / graphsolve-ldu | chain-saddle | 10000 | 34.65 | yes
umfpack / graphsolve-ldu | crystal | 1000 | 2.69 | yes
umfpack / graphsolve-ldu | crystal | 125 | 5.35 | yes
umfpack / graphsolve-ldu | crystal | 216 | 3.65 | yes
umfpack / graphsolve-ldu | crystal | 27 | 5.64 | yes
umfpack / graphsolve-ldu | crystal | 512 | 2.84 | yes
umfpack / graphsolve-ldu | crystal | 64 | 6.63 | yes
umfpack / graphsolve-ldu | crystal | 8 | 10.05 | yes
umfpack / graphsolve-ldu | crystal-b3 | 1000 | 1.98 | **no**
umfpack / graphsolve-ldu | crystal-b3 | 125 | 3.91 | yes
umfpack / graphsolve-ldu | crystal-b3 | 216 | 3.26 | yes
umfpack / graphsolve-ldu | crystal-b3 | 27 | 5.94 | yes
umfpack / graphsolve-ldu | crystal-b3 | 512 | 2.32 | yes
umfpack / graphsolve-ldu | crystal-b3 | 64 | 3.81 | yes
umfpack / graphsolve-ldu | crystal-b3 | 8 | 9.59 | yes
umfpack / graphsolve-ldu | ladder | 100 | 16.34 | **no**
umfpack / graphsolve-ldu | ladder | 1000 | 19.62 | **no**
umfpack / graphsolve-ldu | ladder | 10000 | 24.14 | yes
umfpack / graphsolve-ldu | ladder-b3 | 100 | 10.59 | **no**
umfpack / graphsolve-ldu | ladder-b3 | 1000 | 14.97 | **no**
umfpack / graphsolve-ldu | ladder-b3 | 10000 | 15.37 | **no**
umfpack / graphsolve-ldu | ladder-saddle | 100 | 20.28 | yes
umfpack / graphsolve-ldu | ladder-saddle | 1000 | 22.83 | yes
umfpack / graphsolve-ldu | ladder-saddle | 10000 | 15.52 | **no**
umfpack / graphsolve-ldu | net | 100 | 7.53 | yes
umfpack / graphsolve-ldu | net | 1024 | 5.06 | yes
umfpack / graphsolve-ldu | net | 25 | 8.37 | yes
umfpack / graphsolve-ldu | net | 400 | 6.09 | yes
umfpack / graphsolve-ldu | net | 9 | 12.53 | yes
umfpack / graphsolve-ldu | net-b3 | 100 | 4.71 | yes
umfpack / graphsolve-ldu | net-b3 | 1024 | 3.74 | yes
umfpack / graphsolve-ldu | net-b3 | 25 | 8.13 | yes
umfpack / graphsolve-ldu | net-b3 | 400 | 4.57 | yes
umfpack / graphsolve-ldu | net-b3 | 9 | 11.13 | yes
umfpack / graphsolve-ldu | tree | 100 | 17.75 | **no**
umfpack / graphsolve-ldu | tree | 1000 | 23.41 | yes
umfpack / graphsolve-ldu | tree | 10000 | 31.05 | yes
umfpack / graphsolve-ldu | tree-b3 | 100 | 16.61 | **no**
umfpack / graphsolve-ldu | tree-b3 | 1000 | 22.87 | yes
umfpack / graphsolve-ldu | tree-b3 | 10000 | 21.88 | yes
umfpack / graphsolve-ldu | tree-saddle | 100 | 34.88 | yes
umfpack / graphsolve-ldu | tree-saddle | 1000 | 33.58 | yes
umfpack / graphsolve-ldu | tree-saddle | 10000 | 33.27 | yes
