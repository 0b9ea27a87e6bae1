struct pair {
	int a;
	int extra;
	int b;
};
