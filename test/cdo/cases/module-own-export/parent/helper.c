/* another file of the module mydrv, which exports mydrv_helper */
int mydrv_helper(int v)
{
	return v * 2;
}
